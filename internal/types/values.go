package types

import (
	"encoding/json"
	"fmt"
	"io"
)

// MergeRules configures what a change request needs before it can merge.
type MergeRules struct {
	// Type is "inherit", "rules" or "none".
	Type  string      `json:"type"`
	Rules []MergeRule `json:"rules,omitempty"`
}

// MergeRule is one merge rule.
type MergeRule struct {
	Rule       string   `json:"rule"`
	Users      []string `json:"users,omitempty"`
	Expression *string  `json:"expression,omitempty"`
}

// MergeRuleNames lists the accepted rule names.
var MergeRuleNames = []string{"require_specific_reviewers", "require_one_of_specific_reviewers", "allow_bypass",
	"require_at_least_one_review", "require_all_reviews_approved", "require_agent_review",
	"require_up_to_date_change_request", "require_change_request_subject",
	"require_change_request_description", "custom"}

// RuleNeedsUsers reports whether a rule carries a list of users.
func RuleNeedsUsers(rule string) bool {
	return rule == "require_specific_reviewers" || rule == "require_one_of_specific_reviewers" || rule == "allow_bypass"
}

// ValidRuleName reports whether name is a known merge rule.
func ValidRuleName(name string) bool { return contains(MergeRuleNames, name) }

// Node is any object with a global id; the GraphQL Node interface binds to it.
type Node interface{}

// JSON is an arbitrary JSON value, for settings whose shape is documented
// by the REST API (customization settings, JSON Schemas).
type JSON json.RawMessage

// MarshalGQL writes the value as is.
func (j JSON) MarshalGQL(w io.Writer) {
	if len(j) == 0 {
		io.WriteString(w, "null")
		return
	}
	w.Write(j)
}

// UnmarshalGQL accepts any JSON value.
func (j *JSON) UnmarshalGQL(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("JSON: %w", err)
	}
	*j = b
	return nil
}

// MarshalJSON writes the value as is.
func (j JSON) MarshalJSON() ([]byte, error) {
	if len(j) == 0 {
		return []byte("null"), nil
	}
	return j, nil
}
