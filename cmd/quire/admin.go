package main

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"quire/ent"
	"quire/ent/member"
	"quire/ent/user"
	"quire/internal/apierr"
	"quire/internal/auth"
	"quire/internal/db"
	"quire/internal/orgs"
	"quire/internal/types"
)

// guestRole is the --role value for a member without a role.
const guestRole = "guest"

// Output shapes.
type idJSON struct {
	ID string `json:"id"`
}

// Outputs that hold a token also give its id (tokenId), which names the
// token to "quire admin token revoke" without its secret.
type bootstrapOutput struct {
	Organization idJSON `json:"organization"`
	User         idJSON `json:"user"`
	Token        string `json:"token"`
	TokenID      string `json:"tokenId"`
}

type userCreateOutput struct {
	User    idJSON `json:"user"`
	Token   string `json:"token"`
	TokenID string `json:"tokenId"`
}

type tokenCreateOutput struct {
	Token   string `json:"token"`
	TokenID string `json:"tokenId"`
}

// checkEmail reports whether email looks like an address: a local part, an
// @ and a domain, without spaces or angle brackets, at most 254 characters
// (the longest address mail can carry). Its domain must be one the API
// takes as an organization's email domain (orgs.NormalizeDomain): joining
// by email domain and single sign-on compare addresses by it, so a user
// made here with another could never be matched by them.
func checkEmail(email string) error {
	at := strings.LastIndex(email, "@")
	if at <= 0 || at == len(email)-1 || len(email) > 254 || strings.ContainsAny(email, " \t\r\n<>") {
		return fmt.Errorf("--email %q is not an email address", email)
	}
	if _, ok := orgs.NormalizeDomain(email[at+1:]); !ok {
		return fmt.Errorf("--email %q: %q is not a domain name", email, email[at+1:])
	}
	return nil
}

// maxDisplayName bounds a display name in characters, as sign-in through
// an identity provider bounds the names it takes from assertions.
const maxDisplayName = 100

// checkDisplayName reports whether name (given with --name) may be a
// user's display name: at most maxDisplayName characters, none of them
// control characters (it is shown on one line everywhere).
func checkDisplayName(name string) error {
	if n := utf8.RuneCountInString(name); n > maxDisplayName {
		return fmt.Errorf("--name has %d characters; a display name has at most %d", n, maxDisplayName)
	}
	if strings.IndexFunc(name, unicode.IsControl) >= 0 {
		return fmt.Errorf("--name %q holds a control character", name)
	}
	return nil
}

// apiMessage is the message the API would answer err with.
func apiMessage(err error) string {
	if ae, ok := apierr.As(err); ok {
		return ae.Message
	}
	return err.Error()
}

// displayName returns name, or the part of email before the @.
func displayName(name, email string) string {
	if name = strings.TrimSpace(name); name != "" {
		return name
	}
	local, _, _ := strings.Cut(email, "@")
	return local
}

// withTx runs fn in one transaction of client, committing when fn
// succeeds, retried as the engines' writes are (db.WithTx).
func withTx(ctx context.Context, client *ent.Client, fn func(tx *ent.Tx) error) error {
	return db.WithTx(ctx, client, fn)
}

// ensureMember makes userID a member of orgID with role (nil: guest),
// updating the role of an existing membership.
func ensureMember(ctx context.Context, tx *ent.Tx, orgID, userID string, role *types.Role) error {
	m, err := tx.Member.Query().Where(member.OrganizationID(orgID), member.UserID(userID)).Only(ctx)
	switch {
	case ent.IsNotFound(err):
		if _, err := tx.Member.Create().SetOrganizationID(orgID).SetUserID(userID).SetNillableRole(role).Save(ctx); err != nil {
			return fmt.Errorf("create membership: %w", err)
		}
		return nil
	case err != nil:
		return fmt.Errorf("find membership: %w", err)
	}
	upd := m.Update()
	if role == nil {
		upd.ClearRole()
	} else {
		upd.SetRole(*role)
	}
	if _, err := upd.Save(ctx); err != nil {
		return fmt.Errorf("update membership: %w", err)
	}
	return nil
}

// adminBootstrap implements "quire admin bootstrap".
func (e *env) adminBootstrap(ctx context.Context, args []string) int {
	fs := e.newFlagSet("quire admin bootstrap")
	dbf := e.databaseFlags(fs)
	org := fs.String("org", "", "`TITLE` of the organization to create (required)")
	email := fs.String("email", "", "`EMAIL` of the admin user; an existing user with this email is reused (required)")
	name := fs.String("name", "", "display `NAME` of a new user (default: the part of the email before @)")
	if code, done := e.parse(fs, args); done {
		return code
	}
	*org, *email = strings.TrimSpace(*org), strings.TrimSpace(*email)
	if *org == "" {
		return e.usageError(fs, "--org is required")
	}
	if *email == "" {
		return e.usageError(fs, "--email is required")
	}
	if err := checkEmail(*email); err != nil {
		return e.usageError(fs, "%v", err)
	}
	// The API's own rule for organization titles, so that bootstrap makes
	// no organization that the API would refuse to rename to itself.
	if err := orgs.CheckTitle(*org); err != nil {
		return e.usageError(fs, "--org %q: %s", *org, apiMessage(err))
	}
	if err := checkDisplayName(strings.TrimSpace(*name)); err != nil {
		return e.usageError(fs, "%v", err)
	}

	log := e.logger()
	d, err := e.openExisting(log, fs, dbf)
	if err != nil {
		return exitFailure
	}
	defer d.Close()
	if err := d.Migrate(ctx); err != nil {
		log.Error("migrate", "database", databaseLocation(*dbf.url), "error", err.Error())
		return exitFailure
	}

	var out bootstrapOutput
	reused := false
	err = withTx(ctx, d.Client, func(tx *ent.Tx) error {
		o, err := tx.Organization.Create().SetTitle(*org).Save(ctx)
		if err != nil {
			return fmt.Errorf("create organization: %w", err)
		}
		u, err := tx.User.Query().Where(user.EmailEQ(*email)).Only(ctx)
		switch {
		case ent.IsNotFound(err):
			u, err = tx.User.Create().SetEmail(*email).SetDisplayName(displayName(*name, *email)).Save(ctx)
			if err != nil {
				return fmt.Errorf("create user: %w", err)
			}
		case err != nil:
			return fmt.Errorf("find user: %w", err)
		default:
			reused = true
		}
		admin := types.RoleAdmin
		if err := ensureMember(ctx, tx, o.ID, u.ID, &admin); err != nil {
			return err
		}
		tokenID, token, err := auth.IssueToken(ctx, tx.Client(), u.ID, "bootstrap")
		if err != nil {
			return err
		}
		out = bootstrapOutput{Organization: idJSON{o.ID}, User: idJSON{u.ID}, Token: token, TokenID: tokenID}
		return nil
	})
	if err != nil {
		log.Error("bootstrap", "error", err.Error())
		return exitFailure
	}
	log.Info("bootstrapped", "organization", out.Organization.ID, "user", out.User.ID, "existing_user", reused)
	if err := e.printJSON(out); err != nil {
		log.Error("write output", "error", err.Error())
		return exitFailure
	}
	return exitOK
}

// adminUserCreate implements "quire admin user create".
func (e *env) adminUserCreate(ctx context.Context, args []string) int {
	fs := e.newFlagSet("quire admin user create")
	dbf := e.databaseFlags(fs)
	email := fs.String("email", "", "`EMAIL` of the new user (required)")
	name := fs.String("name", "", "display `NAME` (default: the part of the email before @)")
	orgID := fs.String("org", "", "`ORG_ID` of an organization to make the user a member of (needs --role)")
	roleFlag := fs.String("role", "", "member `ROLE` in --org: "+strings.Join(types.Roles, ", ")+", or "+guestRole+" for a member without role")
	verified := fs.Bool("verified", false, "mark the email address verified")
	if code, done := e.parse(fs, args); done {
		return code
	}
	*email, *orgID, *roleFlag = strings.TrimSpace(*email), strings.TrimSpace(*orgID), strings.TrimSpace(*roleFlag)
	if *email == "" {
		return e.usageError(fs, "--email is required")
	}
	if err := checkEmail(*email); err != nil {
		return e.usageError(fs, "%v", err)
	}
	if err := checkDisplayName(strings.TrimSpace(*name)); err != nil {
		return e.usageError(fs, "%v", err)
	}
	if (*orgID == "") != (*roleFlag == "") {
		return e.usageError(fs, "--org and --role go together")
	}
	var role *types.Role
	if *roleFlag != "" && *roleFlag != guestRole {
		r := types.Role(*roleFlag)
		if !r.Valid() {
			return e.usageError(fs, "--role %q is not one of %s, %s", *roleFlag, strings.Join(types.Roles, ", "), guestRole)
		}
		role = &r
	}

	log := e.logger()
	d, err := e.openExisting(log, fs, dbf)
	if err != nil {
		return exitFailure
	}
	defer d.Close()

	var out userCreateOutput
	err = withTx(ctx, d.Client, func(tx *ent.Tx) error {
		exists, err := tx.User.Query().Where(user.EmailEQ(*email)).Exist(ctx)
		if err != nil {
			return fmt.Errorf("find user: %w", err)
		}
		if exists {
			return fmt.Errorf("a user with email %q already exists", *email)
		}
		if *orgID != "" {
			if _, err := tx.Organization.Get(ctx, *orgID); ent.IsNotFound(err) {
				return fmt.Errorf("organization %q does not exist", *orgID)
			} else if err != nil {
				return fmt.Errorf("find organization: %w", err)
			}
		}
		c := tx.User.Create().SetEmail(*email).SetDisplayName(displayName(*name, *email))
		if *verified {
			c.SetEmailVerifiedAt(time.Now().UTC())
		}
		u, err := c.Save(ctx)
		if err != nil {
			return fmt.Errorf("create user: %w", err)
		}
		if *orgID != "" {
			if err := ensureMember(ctx, tx, *orgID, u.ID, role); err != nil {
				return err
			}
		}
		tokenID, token, err := auth.IssueToken(ctx, tx.Client(), u.ID, "admin cli")
		if err != nil {
			return err
		}
		out = userCreateOutput{User: idJSON{u.ID}, Token: token, TokenID: tokenID}
		return nil
	})
	if err != nil {
		log.Error("create user", "error", err.Error())
		return exitFailure
	}
	log.Info("created user", "user", out.User.ID, "organization", *orgID, "role", *roleFlag)
	if err := e.printJSON(out); err != nil {
		log.Error("write output", "error", err.Error())
		return exitFailure
	}
	return exitOK
}

// adminTokenCreate implements "quire admin token create".
func (e *env) adminTokenCreate(ctx context.Context, args []string) int {
	fs := e.newFlagSet("quire admin token create")
	dbf := e.databaseFlags(fs)
	userID := fs.String("user", "", "`USER_ID` of the user the token is for (required)")
	if code, done := e.parse(fs, args); done {
		return code
	}
	*userID = strings.TrimSpace(*userID)
	if *userID == "" {
		return e.usageError(fs, "--user is required")
	}

	log := e.logger()
	d, err := e.openExisting(log, fs, dbf)
	if err != nil {
		return exitFailure
	}
	defer d.Close()

	var out tokenCreateOutput
	err = withTx(ctx, d.Client, func(tx *ent.Tx) error {
		if _, err := tx.User.Get(ctx, *userID); ent.IsNotFound(err) {
			return fmt.Errorf("user %q does not exist", *userID)
		} else if err != nil {
			return fmt.Errorf("find user: %w", err)
		}
		tokenID, token, err := auth.IssueToken(ctx, tx.Client(), *userID, "admin cli")
		if err != nil {
			return err
		}
		out = tokenCreateOutput{Token: token, TokenID: tokenID}
		return nil
	})
	if err != nil {
		log.Error("create token", "error", err.Error())
		return exitFailure
	}
	log.Info("created token", "user", *userID)
	if err := e.printJSON(out); err != nil {
		log.Error("write output", "error", err.Error())
		return exitFailure
	}
	return exitOK
}
