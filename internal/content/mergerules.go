package content

import (
	"context"
	"fmt"
	"strings"

	"quire/ent"
	"quire/internal/apierr"
	"quire/internal/types"
)

// checkMergeRules checks, in the merge's transaction (c is its client), the
// merge rules that apply to a space: its own, or its organization's when
// the space inherits them.
func checkMergeRules(ctx context.Context, c *ent.Client, cr *ent.ChangeRequest, sp *ent.Space) error {
	rules := sp.MergeRules
	if rules.Type == "inherit" {
		org, err := c.Organization.Get(ctx, sp.OrganizationID)
		if err != nil {
			return fmt.Errorf("load organization merge rules: %w", err)
		}
		rules = org.MergeRules
	}
	return CheckMergeRules(cr, sp, rules)
}

// CheckMergeRules refuses (PreconditionFailed) the merge of a change request
// that the given merge rules forbid. Quire can check the rules about the
// change request itself: a subject, a description, being up to date with
// the space. Rules about reviews cannot be met yet (Quire has no reviews),
// so they are not enforced.
func CheckMergeRules(cr *ent.ChangeRequest, sp *ent.Space, rules types.MergeRules) error {
	if rules.Type != "rules" {
		return nil
	}
	for _, rule := range rules.Rules {
		switch rule.Rule {
		case "require_change_request_subject":
			if strings.TrimSpace(cr.Subject) == "" {
				return apierr.New(apierr.PreconditionFailed, "The space's merge rules require a subject")
			}
		case "require_change_request_description":
			if cr.Description == nil {
				return apierr.New(apierr.PreconditionFailed, "The space's merge rules require a description")
			}
		case "require_up_to_date_change_request":
			if Outdated(cr, sp) {
				return apierr.New(apierr.PreconditionFailed, "The space's merge rules require the change request to be up to date: update it first")
			}
		}
	}
	return nil
}
