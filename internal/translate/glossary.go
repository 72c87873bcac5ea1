package translate

import (
	"regexp"
	"strings"

	"quire/internal/document"
)

// Rule is a rule of a translation's glossary, read from its instructions:
// keep Term as it is, or write Replacement for it.
type Rule struct {
	// Kind is keep or replace.
	Kind        string
	Term        string
	Replacement string
}

// Rule kinds.
const (
	RuleKeep    = "keep"
	RuleReplace = "replace"
)

// maxRules bounds the rules read from instructions.
const maxRules = 200

// quoted is a term in quotes of any usual kind, or one word.
const quoted = `(?:["'“‘«]([^"'”’»\n]{1,100})["'”’»]|([\p{L}\p{N}][\p{L}\p{N}._-]{0,99}))`

var (
	keepRules = []*regexp.Regexp{
		regexp.MustCompile(`(?i)\bkeep\s+` + quoted + `\s+(?:untranslated|as it is|as is|unchanged|in \p{L}+)`),
		regexp.MustCompile(`(?i)\b(?:do not|don'?t|never)\s+translate\s+` + quoted),
	}
	replaceRules = []*regexp.Regexp{
		regexp.MustCompile(`(?i)\btranslate\s+` + quoted + `\s+(?:as|to|into|by)\s+` + quoted),
		regexp.MustCompile(`^\s*` + quoted + `\s*(?:->|=>|→|:|=)\s*` + quoted + `\s*$`),
	}
)

func term(m []string, i int) string {
	if m[i] != "" {
		return strings.TrimSpace(m[i])
	}
	return strings.TrimSpace(m[i+1])
}

// Glossary reads the rules of instructions: each line (paragraph, list
// item) may say "Keep 'Quire' untranslated", "Do not translate Quire",
// "Translate 'space' as 'espace'", or be a glossary entry "space ->
// espace" (also =>, →, : or =). Lines saying something else are not rules
// (a machine translator cannot follow them).
func Glossary(d *document.Document) []Rule {
	if d == nil {
		return nil
	}
	var out []Rule
	seen := map[string]bool{}
	add := func(r Rule) {
		if r.Term == "" || seen[r.Term] || len(out) >= maxRules {
			return
		}
		seen[r.Term] = true
		out = append(out, r)
	}
	for _, line := range strings.Split(d.Text(), "\n") {
		line = strings.TrimSpace(line)
		matched := false
		for _, re := range replaceRules {
			for _, m := range re.FindAllStringSubmatch(line, -1) {
				add(Rule{Kind: RuleReplace, Term: term(m, 1), Replacement: term(m, 3)})
				matched = true
			}
		}
		if matched {
			continue
		}
		for _, re := range keepRules {
			for _, m := range re.FindAllStringSubmatch(line, -1) {
				add(Rule{Kind: RuleKeep, Term: term(m, 1)})
			}
		}
	}
	return out
}

// glossaryRe matches every term of rules in a text, longest first, on word
// boundaries.
func glossaryRe(rules []Rule) *regexp.Regexp {
	if len(rules) == 0 {
		return nil
	}
	terms := make([]string, len(rules))
	for i, r := range rules {
		terms[i] = r.Term
	}
	// Longer terms first, so that "Quire Cloud" wins over "Quire".
	for i := 1; i < len(terms); i++ {
		for j := i; j > 0 && len(terms[j]) > len(terms[j-1]); j-- {
			terms[j], terms[j-1] = terms[j-1], terms[j]
		}
	}
	alts := make([]string, len(terms))
	for i, t := range terms {
		alts[i] = regexp.QuoteMeta(t)
	}
	return regexp.MustCompile(`(?:^|\b|\s)(` + strings.Join(alts, "|") + `)(?:\b|$|\s)`)
}
