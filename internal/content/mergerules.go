package content

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"quire/ent"
	"quire/internal/apierr"
	"quire/internal/types"
)

// checkMergeRules checks, in the merge's transaction (c is its client), the
// merge rules that apply to a space: its own, or its organization's when
// the space inherits them. The users an allow_bypass rule names merge
// without them. Rules about the change request itself are checked here,
// those about reviews by the reviews engine; require_agent_review and
// custom rules are not enforced (Quire has no review agents, and custom
// expressions have no documented meaning).
func (s *Service) checkMergeRules(ctx context.Context, c *ent.Client, cr *ent.ChangeRequest, sp *ent.Space, userID string) error {
	rules := sp.MergeRules
	if rules.Type == "inherit" {
		org, err := c.Organization.Get(ctx, sp.OrganizationID)
		if err != nil {
			return fmt.Errorf("load organization merge rules: %w", err)
		}
		rules = org.MergeRules
	}
	if rules.Type != "rules" || bypasses(rules, userID) {
		return nil
	}
	if err := CheckMergeRules(cr, sp, rules); err != nil {
		return err
	}
	if s.Reviews == nil {
		return nil
	}
	return s.Reviews.CheckReviewRules(ctx, c, cr, rules.Rules)
}

// bypasses reports whether an allow_bypass rule names the user.
func bypasses(rules types.MergeRules, userID string) bool {
	for _, r := range rules.Rules {
		if r.Rule == "allow_bypass" && userID != "" && slices.Contains(r.Users, userID) {
			return true
		}
	}
	return false
}

// CheckMergeRules refuses (PreconditionFailed) the merge of a change request
// that the given merge rules about the change request itself forbid: a
// subject, a description, being up to date with the space.
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
