package gqlguard

import (
	"github.com/vektah/gqlparser/v2/validator/core"
	"github.com/vektah/gqlparser/v2/validator/rules"
)

// ValidationRules returns the GraphQL validation rules Quire runs on every
// document not already in the query cache: gqlparser's default rules, with
// two changes.
//
//   - No suggestions. The rules that would end a message with "Did you mean
//     ...?" (unknown fields, arguments, types and enum values, missing
//     sub-selections) are replaced by their variants without suggestions, so
//     that an error names only what the caller wrote. Use it together with
//     (*handler.Server).SetDisableSuggestion(true), which makes the same
//     swap for the unknown-field rule only.
//   - OverlappingFieldsCanBeMerged takes time linear in repeated copies of a
//     field (see overlap.go) instead of quadratic; it refuses the same
//     documents with the same messages, less repetitions.
//
// Pass it to (*handler.Server).SetValidationRulesFn.
func ValidationRules() *rules.Rules {
	r := rules.NewDefaultRules()
	for _, swap := range []struct {
		name string
		rule core.Rule
	}{
		{rules.FieldsOnCorrectTypeRule.Name, rules.FieldsOnCorrectTypeRuleWithoutSuggestions},
		{rules.KnownArgumentNamesRule.Name, rules.KnownArgumentNamesRuleWithoutSuggestions},
		{rules.KnownTypeNamesRule.Name, rules.KnownTypeNamesRuleWithoutSuggestions},
		{rules.ScalarLeafsRule.Name, rules.ScalarLeafsRuleWithoutSuggestions},
		{rules.ValuesOfCorrectTypeRule.Name, rules.ValuesOfCorrectTypeRuleWithoutSuggestions},
	} {
		r.RemoveRule(swap.name)
		r.AddRule(swap.rule.Name, swap.rule.RuleFunc)
	}
	r.ReplaceRule(overlappingFieldsRule.Name, overlappingFieldsRule.RuleFunc)
	return r
}
