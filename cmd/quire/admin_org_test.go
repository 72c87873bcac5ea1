package main

import (
	"strings"
	"testing"
)

type orgResult struct {
	Organization struct {
		ID            string  `json:"id"`
		Title         string  `json:"title"`
		UseCase       *string `json:"useCase"`
		CommunityType *string `json:"communityType"`
		Blocked       *struct {
			Source string `json:"source"`
			Reason string `json:"reason"`
		} `json:"blocked"`
	} `json:"organization"`
}

// quire admin org block, unblock and set change the organization, and
// refuse bad input as usage errors without writing anything.
func TestAdminOrg(t *testing.T) {
	url := newMigratedDBURL(t)
	boot := bootstrap(t, url, "Org", "admin@example.com")
	id := boot.Organization.ID
	d := openTestDB(t, url)
	ctx := t.Context()

	var out orgResult
	// Flags may come before the id.
	quireJSON(t, &out, "admin", "org", "block", "--database-url", url, "--reason", "Abuse report", id)
	if out.Organization.ID != id || out.Organization.Blocked == nil || out.Organization.Blocked.Source != "backoffice" ||
		out.Organization.Blocked.Reason != "Abuse report" {
		t.Errorf("block: %+v", out.Organization)
	}
	if o := d.Client.Organization.GetX(ctx, id); o.BlockedReason == nil || *o.BlockedReason != "Abuse report" {
		t.Errorf("stored block %v", o.BlockedReason)
	}

	out = orgResult{}
	quireJSON(t, &out, "admin", "org", "set", id, "--database-url", url, "--use-case", "notes", "--community-type", "nonProfit")
	if out.Organization.UseCase == nil || *out.Organization.UseCase != "notes" || out.Organization.CommunityType == nil ||
		*out.Organization.CommunityType != "nonProfit" || out.Organization.Blocked == nil {
		t.Errorf("set: %+v", out.Organization)
	}

	out = orgResult{}
	quireJSON(t, &out, "admin", "org", "unblock", id, "--database-url", url)
	if out.Organization.Blocked != nil {
		t.Errorf("unblock: %+v", out.Organization)
	}
	if o := d.Client.Organization.GetX(ctx, id); o.BlockedReason != nil || o.BlockedSource != nil {
		t.Errorf("stored block after unblock: %v %v", o.BlockedSource, o.BlockedReason)
	}

	// Usage errors: exit 2, nothing on stdout, nothing written.
	for _, args := range [][]string{
		{"block", id},
		{"block", id, "--reason", "  "},
		{"block", id, "--reason", strings.Repeat("r", 256)},
		{"block", "--reason", "x"},
		{"set", id},
		{"set", id, "--use-case", "docs"},
		{"set", id, "--community-type", "club"},
		{"frobnicate", id},
	} {
		code, stdout, _ := quire(t, append(append([]string{"admin", "org"}, args...), "--database-url", url)...)
		if code != 2 || stdout != "" {
			t.Errorf("admin org %v: exit %d, stdout %q; want 2 and nothing", args, code, stdout)
		}
	}
	if o := d.Client.Organization.GetX(ctx, id); o.BlockedReason != nil || *o.UseCase != "notes" {
		t.Errorf("a refused command wrote: blocked %v, useCase %v", o.BlockedReason, *o.UseCase)
	}
	// An unknown organization: exit 1.
	code, stdout, stderr := quire(t, "admin", "org", "block", "O-nope", "--database-url", url, "--reason", "x")
	if code != 1 || stdout != "" || !strings.Contains(stderr, "No matching organization") {
		t.Errorf("unknown organization: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}
