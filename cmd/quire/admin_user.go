package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"quire/ent"
	"quire/ent/user"
)

type userVerifyOutput struct {
	User struct {
		ID              string     `json:"id"`
		Email           string     `json:"email"`
		EmailVerifiedAt *time.Time `json:"emailVerifiedAt"`
	} `json:"user"`
}

// adminUserVerify implements "quire admin user verify": an administrator
// vouches for a user's email address (or withdraws it), which decides
// whether the user may join the organizations of its domain.
func (e *env) adminUserVerify(ctx context.Context, args []string) int {
	fs := e.newFlagSet("quire admin user verify")
	dbf := e.databaseFlags(fs)
	userID := fs.String("user", "", "`USER_ID` of the user")
	email := fs.String("email", "", "`EMAIL` of the user")
	unverify := fs.Bool("unverify", false, "mark the email address not verified")
	if code, done := e.parse(fs, args); done {
		return code
	}
	*userID, *email = strings.TrimSpace(*userID), strings.TrimSpace(*email)
	if (*userID == "") == (*email == "") {
		return e.usageError(fs, "give one of --user and --email")
	}

	log := e.logger()
	d, err := e.openExisting(log, fs, dbf)
	if err != nil {
		return exitFailure
	}
	defer d.Close()

	var out userVerifyOutput
	err = withTx(ctx, d.Client, func(tx *ent.Tx) error {
		q := tx.User.Query()
		if *userID != "" {
			q.Where(user.ID(*userID))
		} else {
			q.Where(user.EmailEqualFold(*email))
		}
		u, err := q.First(ctx)
		if ent.IsNotFound(err) {
			return fmt.Errorf("no such user")
		}
		if err != nil {
			return fmt.Errorf("find user: %w", err)
		}
		up := tx.User.UpdateOne(u)
		if *unverify {
			up.ClearEmailVerifiedAt()
		} else if u.EmailVerifiedAt == nil {
			up.SetEmailVerifiedAt(time.Now().UTC())
		}
		if u, err = up.Save(ctx); err != nil {
			return fmt.Errorf("update user: %w", err)
		}
		out.User.ID, out.User.Email, out.User.EmailVerifiedAt = u.ID, u.Email, u.EmailVerifiedAt
		return nil
	})
	if err != nil {
		log.Error("verify user", "error", err.Error())
		return exitFailure
	}
	log.Info("user email verification", "user", out.User.ID, "verified", out.User.EmailVerifiedAt != nil)
	if err := e.printJSON(out); err != nil {
		log.Error("write output", "error", err.Error())
		return exitFailure
	}
	return exitOK
}
