package main

import (
	"context"
	"errors"
	"strings"

	"quire/internal/auth"
)

type revokedToken struct {
	ID   string `json:"id"`
	User idJSON `json:"user"`
}

type tokenRevokeOutput struct {
	Revoked revokedToken `json:"revoked"`
}

// adminTokenRevoke implements "quire admin token revoke": the token, named
// by its id or by its secret, stops working at once for every process
// sharing the database.
func (e *env) adminTokenRevoke(ctx context.Context, args []string) int {
	fs := e.newFlagSet("quire admin token revoke")
	dbf := e.databaseFlags(fs)
	tokenID := fs.String("token-id", "", "`ID` of the token to revoke (the tokenId printed when it was created)")
	secret := fs.String("token", "", "`SECRET` of the token to revoke (qt_...)")
	if code, done := e.parse(fs, args); done {
		return code
	}
	*tokenID, *secret = strings.TrimSpace(*tokenID), strings.TrimSpace(*secret)
	if (*tokenID == "") == (*secret == "") {
		return e.usageError(fs, "give one of --token-id and --token")
	}

	log := e.logger()
	d, err := e.openExisting(log, fs, dbf)
	if err != nil {
		return exitFailure
	}
	defer d.Close()

	var r *auth.Revoked
	if *tokenID != "" {
		r, err = auth.RevokeToken(ctx, d.Client, *tokenID)
	} else {
		r, err = auth.RevokeSecret(ctx, d.Client, *secret)
	}
	if errors.Is(err, auth.ErrNoToken) {
		// The secret itself never goes to the log.
		log.Error("revoke token: no such token (unknown, or revoked already)", "token_id", *tokenID)
		return exitFailure
	}
	if err != nil {
		log.Error("revoke token", "error", err.Error())
		return exitFailure
	}
	log.Info("revoked token", "token_id", r.ID, "user", r.UserID)
	if err := e.printJSON(tokenRevokeOutput{Revoked: revokedToken{ID: r.ID, User: idJSON{r.UserID}}}); err != nil {
		log.Error("write output", "error", err.Error())
		return exitFailure
	}
	return exitOK
}
