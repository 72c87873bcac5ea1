package auth

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"quire/ent"
	"quire/ent/apitoken"
	"quire/ent/contentpermission"
	"quire/ent/member"
	"quire/ent/organization"
	"quire/ent/teammember"
	"quire/ent/user"
	"quire/internal/types"
)

// Caller is the owner of a token with what nearly every request needs to
// know about them.
type Caller struct {
	User *ent.User
	// Memberships are every membership of the user, disabled ones
	// included.
	Memberships []*ent.Member
	// Organizations are the organizations of the memberships.
	Organizations []*ent.Organization
	// Grants are the levels the user was given on spaces and
	// collections, directly and through teams.
	Grants *Grants
	// Scope is the organization the token is limited to; empty for a
	// token of the whole user. Memberships, organizations and grants are
	// then those of that organization alone.
	Scope string
}

// The columns LookupCaller reads, in the order it scans them, named by
// ent's generated constants. A test checks that they hold every column ent
// reads for each entity (but the ones the joins give: the member's user,
// the organization's id), so that a field added to ent/schema fails it
// until it is read here too.
var (
	callerUserColumns = []string{user.FieldID, user.FieldEmail, user.FieldDisplayName, user.FieldPhotoURL, user.FieldCreatedAt,
		user.FieldEmailVerifiedAt}
	callerMemberColumns = []string{member.FieldID, member.FieldOrganizationID, member.FieldRole, member.FieldDisabled,
		member.FieldSSO, member.FieldJoinedAt, member.FieldLastSeenAt}
	callerOrganizationColumns = []string{organization.FieldTitle, organization.FieldCreatedAt, organization.FieldEmailDomains,
		organization.FieldHostname, organization.FieldType, organization.FieldDefaultRole, organization.FieldInviteLinks,
		organization.FieldSSO, organization.FieldAi, organization.FieldPlan, organization.FieldMergeRules,
		organization.FieldLogoURL, organization.FieldDefaultContentSiteID, organization.FieldUseCase,
		organization.FieldCommunityType, organization.FieldBlockedSource, organization.FieldBlockedReason}
	// callerGrantColumns are those of the caller's grants.
	callerGrantColumns = []string{contentpermission.FieldOrganizationID, contentpermission.FieldSpaceID,
		contentpermission.FieldCollectionID, contentpermission.FieldLevel}
)

// callerQuery is the user whose token has a hash, with each of the user's
// memberships and its organization (none: one row of NULL columns after
// the user's), then a row per grant to the user and per grant to a team of
// the user, whose member and organization columns are NULL.
var callerQuery = "SELECT " + qualified("u", callerUserColumns) + ",\n\t" +
	qualified("m", callerMemberColumns) + ",\n\t" + qualified("o", callerOrganizationColumns) + ",\n\t" +
	nulls(len(callerGrantColumns)) + ", t." + apitoken.FieldOrganizationID + `
FROM ` + user.Table + ` u
JOIN ` + apitoken.Table + ` t ON t.` + apitoken.FieldUserID + ` = u.` + user.FieldID + `
LEFT JOIN ` + member.Table + ` m ON m.` + member.FieldUserID + ` = u.` + user.FieldID + `
	AND (t.` + apitoken.FieldOrganizationID + ` IS NULL OR m.` + member.FieldOrganizationID + ` = t.` + apitoken.FieldOrganizationID + `)
LEFT JOIN ` + organization.Table + ` o ON o.` + organization.FieldID + ` = m.` + member.FieldOrganizationID + `
WHERE t.` + apitoken.FieldTokenHash + ` = $1
UNION ALL
SELECT ` + qualified("u", callerUserColumns) + ",\n\t" + nulls(len(callerMemberColumns)+len(callerOrganizationColumns)) + ",\n\t" +
	qualified("g", callerGrantColumns) + ", t." + apitoken.FieldOrganizationID + `
FROM ` + user.Table + ` u
JOIN ` + apitoken.Table + ` t ON t.` + apitoken.FieldUserID + ` = u.` + user.FieldID + `
JOIN ` + contentpermission.Table + ` g ON g.` + contentpermission.FieldUserID + ` = u.` + user.FieldID + `
WHERE t.` + apitoken.FieldTokenHash + ` = $1` + scoped + `
UNION ALL
SELECT ` + qualified("u", callerUserColumns) + ",\n\t" + nulls(len(callerMemberColumns)+len(callerOrganizationColumns)) + ",\n\t" +
	qualified("g", callerGrantColumns) + ", t." + apitoken.FieldOrganizationID + `
FROM ` + user.Table + ` u
JOIN ` + apitoken.Table + ` t ON t.` + apitoken.FieldUserID + ` = u.` + user.FieldID + `
JOIN ` + teammember.Table + ` tm ON tm.` + teammember.FieldUserID + ` = u.` + user.FieldID + `
JOIN ` + contentpermission.Table + ` g ON g.` + contentpermission.FieldTeamID + ` = tm.` + teammember.FieldTeamID + `
WHERE t.` + apitoken.FieldTokenHash + ` = $1` + scoped

// scoped keeps the grants of a token's organization, when it has one.
var scoped = `
	AND (t.` + apitoken.FieldOrganizationID + ` IS NULL OR g.` + contentpermission.FieldOrganizationID + ` = t.` + apitoken.FieldOrganizationID + `)`

// nulls is n NULL columns.
func nulls(n int) string {
	out := make([]string, n)
	for i := range out {
		out[i] = "NULL"
	}
	return strings.Join(out, ", ")
}

// qualified lists columns of a table alias: "u.id, u.email".
func qualified(alias string, columns []string) string {
	out := make([]string, len(columns))
	for i, c := range columns {
		out[i] = alias + "." + c
	}
	return strings.Join(out, ", ")
}

// LookupCaller returns the owner of a secret, their memberships, the
// organizations of those and their grants, in one statement: every request
// needs the user to know who asks, and the memberships and grants to decide
// what it may see, and most present an organization. It returns nil when
// the secret is unknown.
func LookupCaller(ctx context.Context, client *ent.Client, secret string) (*Caller, error) {
	if secret == "" || len(secret) > 200 {
		return nil, nil
	}
	rows, err := client.QueryContext(ctx, callerQuery, Hash(secret))
	if err != nil {
		return nil, fmt.Errorf("look up token: %w", err)
	}
	defer rows.Close()
	var c *Caller
	var grants []Grant
	for rows.Next() {
		var (
			uid, email, name                string
			photo                           sql.NullString
			created                         time.Time
			verified                        sql.NullTime
			mid, org, role                  sql.NullString
			disabled, sso                   sql.NullBool
			joined, seen                    sql.NullTime
			title, host, typ, defRole, plan sql.NullString
			orgCreated                      sql.NullTime
			domains, mergeRules             []byte
			inviteLinks, orgSSO, ai         sql.NullBool
			logo, defaultSite               sql.NullString
			useCase, community              sql.NullString
			blockedSource, blockedReason    sql.NullString
			gOrg, gSpace, gColl, gLevel     sql.NullString
			scope                           sql.NullString
		)
		if err := rows.Scan(&uid, &email, &name, &photo, &created, &verified, &mid, &org, &role, &disabled, &sso, &joined, &seen,
			&title, &orgCreated, &domains, &host, &typ, &defRole, &inviteLinks, &orgSSO, &ai, &plan, &mergeRules,
			&logo, &defaultSite, &useCase, &community, &blockedSource, &blockedReason, &gOrg, &gSpace, &gColl, &gLevel, &scope); err != nil {
			return nil, fmt.Errorf("look up token: %w", err)
		}
		if c == nil {
			c = &Caller{User: &ent.User{ID: uid, Email: email, DisplayName: name, PhotoURL: optional(photo), CreatedAt: created}}
			if verified.Valid {
				t := verified.Time
				c.User.EmailVerifiedAt = &t
			}
			c.Scope = scope.String
		}
		if gLevel.Valid {
			target := gSpace.String
			if !gSpace.Valid {
				target = gColl.String
			}
			grants = append(grants, Grant{Organization: gOrg.String, Target: target, Level: types.Role(gLevel.String)})
			continue
		}
		if !mid.Valid {
			continue
		}
		m := &ent.Member{ID: mid.String, OrganizationID: org.String, UserID: uid, Disabled: disabled.Bool, SSO: sso.Bool, JoinedAt: joined.Time}
		if role.Valid {
			r := types.Role(role.String)
			m.Role = &r
		}
		if seen.Valid {
			t := seen.Time
			m.LastSeenAt = &t
		}
		c.Memberships = append(c.Memberships, m)
		if !title.Valid {
			continue // no such organization
		}
		// As ent reads it; JSON columns are decoded when not empty.
		o := &ent.Organization{ID: org.String, Title: title.String, CreatedAt: orgCreated.Time, Hostname: optional(host),
			Type: typ.String, InviteLinks: inviteLinks.Bool, SSO: orgSSO.Bool, Ai: ai.Bool, Plan: plan.String,
			LogoURL: optional(logo), DefaultContentSiteID: optional(defaultSite), UseCase: optional(useCase),
			CommunityType: optional(community), BlockedSource: optional(blockedSource), BlockedReason: optional(blockedReason)}
		if defRole.Valid {
			r := types.Role(defRole.String)
			o.DefaultRole = &r
		}
		if len(domains) > 0 {
			if err := json.Unmarshal(domains, &o.EmailDomains); err != nil {
				return nil, fmt.Errorf("look up token: organization email domains: %w", err)
			}
		}
		if len(mergeRules) > 0 {
			if err := json.Unmarshal(mergeRules, &o.MergeRules); err != nil {
				return nil, fmt.Errorf("look up token: organization merge rules: %w", err)
			}
		}
		c.Organizations = append(c.Organizations, o)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("look up token: %w", err)
	}
	if c != nil {
		c.Grants = NewGrants(grants)
	}
	return c, nil
}

func optional(s sql.NullString) *string {
	if !s.Valid {
		return nil
	}
	return &s.String
}
