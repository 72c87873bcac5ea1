package main

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"quire/ent"
	"quire/internal/apierr"
	"quire/internal/orgs"
)

// orgBlocked is an organization's block in the output of quire admin org.
type orgBlocked struct {
	Source string `json:"source"`
	Reason string `json:"reason"`
}

type orgState struct {
	ID            string      `json:"id"`
	Title         string      `json:"title"`
	UseCase       *string     `json:"useCase"`
	CommunityType *string     `json:"communityType"`
	Blocked       *orgBlocked `json:"blocked"`
}

type orgOutput struct {
	Organization orgState `json:"organization"`
}

// adminOrgBlock implements "quire admin org block": every call on what is
// in the organization is refused from then on, on every process sharing
// the database.
func (e *env) adminOrgBlock(ctx context.Context, args []string) int {
	fs := e.newFlagSet("quire admin org block")
	dbf := e.databaseFlags(fs)
	reason := fs.String("reason", "", fmt.Sprintf("`TEXT`: why the organization is blocked, 1 to %d characters, shown to its members (required)", orgs.BlockReasonMax))
	id, rest := orgArgs(args)
	if code, done := e.parse(fs, rest); done {
		return code
	}
	if id == "" {
		return e.usageError(fs, "give the id of an organization")
	}
	if err := orgs.CheckBlockReason(strings.TrimSpace(*reason)); err != nil {
		return e.usageError(fs, "--reason: %s", apiMessage(err))
	}
	return e.changeOrg(ctx, fs, dbf, id, "block organization", func(c *ent.Client) (*ent.Organization, error) {
		return orgs.Block(ctx, c, id, *reason)
	})
}

// adminOrgUnblock implements "quire admin org unblock".
func (e *env) adminOrgUnblock(ctx context.Context, args []string) int {
	fs := e.newFlagSet("quire admin org unblock")
	dbf := e.databaseFlags(fs)
	id, rest := orgArgs(args)
	if code, done := e.parse(fs, rest); done {
		return code
	}
	if id == "" {
		return e.usageError(fs, "give the id of an organization")
	}
	return e.changeOrg(ctx, fs, dbf, id, "unblock organization", func(c *ent.Client) (*ent.Organization, error) {
		return orgs.Unblock(ctx, c, id)
	})
}

// adminOrgSet implements "quire admin org set": the organization's use
// case and community type, which no API call changes.
func (e *env) adminOrgSet(ctx context.Context, args []string) int {
	fs := e.newFlagSet("quire admin org set")
	dbf := e.databaseFlags(fs)
	var p orgs.Profile
	fs.Func("use-case", "one of "+strings.Join(orgs.UseCases, ", ")+"; empty clears it", func(v string) error {
		p.UseCase = &v
		return nil
	})
	fs.Func("community-type", "one of "+strings.Join(orgs.CommunityTypes, ", ")+"; empty clears it", func(v string) error {
		p.CommunityType = &v
		return nil
	})
	id, rest := orgArgs(args)
	if code, done := e.parse(fs, rest); done {
		return code
	}
	if id == "" {
		return e.usageError(fs, "give the id of an organization")
	}
	if p.UseCase == nil && p.CommunityType == nil {
		return e.usageError(fs, "give --use-case or --community-type")
	}
	return e.changeOrg(ctx, fs, dbf, id, "set organization", func(c *ent.Client) (*ent.Organization, error) {
		return orgs.SetProfile(ctx, c, id, p)
	})
}

// changeOrg opens the database, applies change and prints the
// organization. A bad value is a usage error (2), an unknown organization
// a failure (1).
func (e *env) changeOrg(ctx context.Context, fs *flag.FlagSet, dbf *dbFlags, id, what string, change func(*ent.Client) (*ent.Organization, error)) int {
	log := e.logger()
	d, err := e.openExisting(log, fs, dbf)
	if err != nil {
		return exitFailure
	}
	defer d.Close()
	o, err := change(d.Client)
	if ae, ok := apierr.As(err); ok && ae.Code == apierr.BadRequest {
		return e.usageError(fs, "%s", ae.Message)
	}
	if err != nil {
		log.Error(what, "organization", id, "error", apiMessage(err))
		return exitFailure
	}
	log.Info(what, "organization", id)
	out := orgOutput{Organization: orgState{ID: o.ID, Title: o.Title, UseCase: o.UseCase, CommunityType: o.CommunityType}}
	if o.BlockedReason != nil {
		out.Organization.Blocked = &orgBlocked{Reason: *o.BlockedReason}
		if o.BlockedSource != nil {
			out.Organization.Blocked.Source = *o.BlockedSource
		}
	}
	if err := e.printJSON(out); err != nil {
		log.Error("write output", "error", err.Error())
		return exitFailure
	}
	return exitOK
}

// orgArgs takes the organization's id out of args, wherever it stands
// among the flags (those of quire admin org take a value each).
func orgArgs(args []string) (string, []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "-") {
			if !strings.Contains(a, "=") && a != "-h" && a != "-help" && a != "--help" {
				i++ // its value
			}
			continue
		}
		return a, append(append([]string{}, args[:i]...), args[i+1:]...)
	}
	return "", args
}
