package auth

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"quire/ent"
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
}

// callerQuery is the user whose token has a hash, with each of the user's
// memberships and its organization (none: one row of NULL columns after
// the user's).
const callerQuery = `SELECT u.id, u.email, u.display_name, u.photo_url, u.created_at,
	m.id, m.organization_id, m.role, m.disabled, m.sso, m.joined_at, m.last_seen_at,
	o.title, o.created_at, o.email_domains, o.hostname, o.type, o.default_role, o.invite_links, o.sso, o.ai, o.plan, o.merge_rules
FROM users u
JOIN api_tokens t ON t.user_id = u.id
LEFT JOIN members m ON m.user_id = u.id
LEFT JOIN organizations o ON o.id = m.organization_id
WHERE t.token_hash = $1`

// LookupCaller returns the owner of a secret, their memberships and the
// organizations of those, in one statement: every request needs the user
// to know who asks and the memberships to decide what it may see, and most
// present an organization. It returns nil when the secret is unknown.
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
	for rows.Next() {
		var (
			uid, email, name                string
			photo                           sql.NullString
			created                         time.Time
			mid, org, role                  sql.NullString
			disabled, sso                   sql.NullBool
			joined, seen                    sql.NullTime
			title, host, typ, defRole, plan sql.NullString
			orgCreated                      sql.NullTime
			domains, mergeRules             []byte
			inviteLinks, orgSSO, ai         sql.NullBool
		)
		if err := rows.Scan(&uid, &email, &name, &photo, &created, &mid, &org, &role, &disabled, &sso, &joined, &seen,
			&title, &orgCreated, &domains, &host, &typ, &defRole, &inviteLinks, &orgSSO, &ai, &plan, &mergeRules); err != nil {
			return nil, fmt.Errorf("look up token: %w", err)
		}
		if c == nil {
			c = &Caller{User: &ent.User{ID: uid, Email: email, DisplayName: name, PhotoURL: optional(photo), CreatedAt: created}}
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
			Type: typ.String, InviteLinks: inviteLinks.Bool, SSO: orgSSO.Bool, Ai: ai.Bool, Plan: plan.String}
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
	return c, nil
}

func optional(s sql.NullString) *string {
	if !s.Valid {
		return nil
	}
	return &s.String
}
