package sso

import (
	"context"
	"fmt"
	"strings"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"

	"quire/ent"
	"quire/ent/member"
	"quire/ent/organization"
	"quire/ent/team"
	"quire/ent/teammember"
	"quire/ent/user"
	"quire/internal/apierr"
	"quire/internal/auth"
	"quire/internal/db"
)

// Users are one account across the server, shared by every organization,
// while an identity provider answers to one organization's admins, who
// hold (or choose) its signing certificate. So an assertion is only as
// good as the organization's claim on the address it names. Its email
// domains are that claim, but an admin's word, not a proof: any admin may
// list any domain. An existing account therefore never joins an
// organization on an assertion alone; its owner joins (by email domain, by
// an invite) and signs in through the provider from then on.

// provision signs a user in to the provider's organization and issues a
// new token limited to it. Who the assertion may sign in:
//   - a member of the organization: signed in as they are (their role
//     untouched), marked as a member who signs in through single sign-on;
//   - an address no user has, when it is of one of the organization's
//     email domains: a new user, its address verified, made a member with
//     the provider's default role and team.
//
// Anything else is refused with nothing written: a provider cannot reach
// an account that is no member of its organization (listing the account's
// domain among its own is not enough), nor claim an address of a domain
// it does not list on the server for later. The rule is read and the writes are
// made in one transaction, the organization's row locked (PostgreSQL), so
// that a concurrent change of its email domains is seen whole.
// Errors: Forbidden (an address the organization may not sign in, a
// disabled member).
func (s *Service) provision(ctx context.Context, p *ent.SAMLProvider, email, name string) (*SignIn, error) {
	orgID := p.OrganizationID
	out := &SignIn{}
	err := db.WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		now := s.Now()
		org, err := tx.Organization.Query().Where(organization.ID(orgID), func(sel *entsql.Selector) {
			if sel.Dialect() == dialect.Postgres {
				sel.ForUpdate()
			}
		}).Only(ctx)
		if err != nil {
			return fmt.Errorf("read organization: %w", err)
		}
		u, err := tx.User.Query().Where(user.EmailEqualFold(email)).First(ctx)
		created := false
		switch {
		case ent.IsNotFound(err):
			if !owns(org, email) {
				return notOwned(org, email, "no user has the address")
			}
			created = true
			u, err = tx.User.Create().SetEmail(email).SetDisplayName(name).SetEmailVerifiedAt(now).SetCreatedAt(now).Save(ctx)
			if err != nil {
				return fmt.Errorf("provision user: %w", err)
			}
		case err != nil:
			return fmt.Errorf("read user: %w", err)
		}
		m, err := tx.Member.Query().Where(member.OrganizationID(orgID), member.UserID(u.ID)).Only(ctx)
		switch {
		case ent.IsNotFound(err):
			if !created {
				return admit(org, u)
			}
			if err := s.addMember(ctx, tx, p, u.ID); err != nil {
				return err
			}
		case err != nil:
			return fmt.Errorf("read member: %w", err)
		case m.Disabled:
			return apierr.Forbiddenf("Your membership of this organization is disabled; ask one of its admins")
		default:
			if err := tx.Member.UpdateOne(m).SetSSO(true).Exec(ctx); err != nil {
				return fmt.Errorf("mark SSO member: %w", err)
			}
		}
		tokID, secret, err := auth.IssueScopedToken(ctx, tx.Client(), u.ID, "Single sign-on: "+p.Label, orgID)
		if err != nil {
			return err
		}
		out.Token, out.TokenID = secret, tokID
		out.User = SignedInUser{ID: u.ID, Email: u.Email, DisplayName: u.DisplayName}
		out.Organization.ID = orgID
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// admit refuses an existing user who is no member of the organization,
// saying how they may become one. An address outside the organization's
// domains gets the answer an address no user has gets; one of its domains
// is told to join first, which the account's owner does with their own
// token (POST /orgs/{id}/join needs the address verified).
func admit(org *ent.Organization, u *ent.User) error {
	if !owns(org, u.Email) {
		return notOwned(org, u.Email, "the user is no member")
	}
	return refused(fmt.Errorf("assertion for %s refused by organization %s: the user exists and is no member", u.Email, org.ID),
		"The account of %s is no member of this organization: join it first (by its email domain or an invite), then sign in through its identity provider", u.Email)
}

// notOwned refuses an address the organization may not sign in. The
// answer is the same whether or not a user has the address, so that a
// provider tells its admins nothing of other organizations' accounts.
func notOwned(org *ent.Organization, email, why string) error {
	return refused(fmt.Errorf("assertion for %s refused by organization %s: %s, and its domain is not among %v", email, org.ID, why, org.EmailDomains),
		"This identity provider signs in only members of its organization and addresses of the organization's email domains; %s is neither", email)
}

// addMember makes a user a member of the provider's organization with the
// provider's default role, in its default team (when that team is still
// the organization's), marked as a member who signs in through single
// sign-on.
func (s *Service) addMember(ctx context.Context, tx *ent.Tx, p *ent.SAMLProvider, userID string) error {
	now := s.Now()
	if err := tx.Member.Create().SetOrganizationID(p.OrganizationID).SetUserID(userID).SetNillableRole(p.DefaultRole).
		SetSSO(true).SetJoinedAt(now).Exec(ctx); err != nil {
		return fmt.Errorf("provision member: %w", err)
	}
	if p.DefaultTeamID == nil {
		return nil
	}
	ok, err := tx.Team.Query().Where(team.ID(*p.DefaultTeamID), team.OrganizationID(p.OrganizationID)).Exist(ctx)
	if err != nil {
		return fmt.Errorf("read default team: %w", err)
	}
	if !ok {
		return nil
	}
	if err := tx.TeamMember.Create().SetTeamID(*p.DefaultTeamID).SetUserID(userID).SetRole("member").SetCreatedAt(now).
		OnConflictColumns(teammember.FieldTeamID, teammember.FieldUserID).DoNothing().Exec(ctx); err != nil && !db.IsNoRows(err) {
		return fmt.Errorf("provision team member: %w", err)
	}
	return nil
}

// owns reports whether an address is of one of the organization's email
// domains (stored in lower case).
func owns(org *ent.Organization, email string) bool {
	at := strings.LastIndexByte(email, '@')
	if at < 0 {
		return false
	}
	d := strings.ToLower(strings.TrimSpace(email[at+1:]))
	for _, od := range org.EmailDomains {
		if od == d {
			return true
		}
	}
	return false
}
