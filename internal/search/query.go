package search

import (
	"strings"
	"unicode"
)

// The query language is PostgreSQL's websearch_to_tsquery's, on both
// databases: words must all appear (in any form the stemmer relates, such
// as configure and configuring); "quoted words" must appear in that order,
// next to each other; OR between two words accepts either; a word or a
// quoted phrase after - must not appear. Anything else is text: there is no
// syntax error.

// term is a word or a phrase of a query.
type term struct {
	words  []string // the phrase's words (one for a word)
	raw    string   // as written (without quotes or a leading -)
	phrase bool     // written in quotes
	negate bool
}

// clause is terms joined by OR.
type clause []term

// parsed is a query: clauses that must all match, and terms that must not.
type parsed struct {
	all []clause
	not []term
}

// parse reads a query as websearch_to_tsquery does. Words are the runs of
// letters and digits (other characters separate them, as both databases'
// tokenizers do).
func parse(q string) parsed {
	var (
		out    parsed
		pendOR bool
	)
	add := func(t term) {
		if len(t.words) == 0 {
			return
		}
		if t.negate {
			out.not = append(out.not, t)
			pendOR = false
			return
		}
		if pendOR && len(out.all) > 0 {
			last := len(out.all) - 1
			out.all[last] = append(out.all[last], t)
		} else {
			out.all = append(out.all, clause{t})
		}
		pendOR = false
	}
	rest := q
	for {
		rest = strings.TrimLeftFunc(rest, unicode.IsSpace)
		if rest == "" {
			break
		}
		negate := false
		if rest[0] == '-' {
			negate = true
			rest = rest[1:]
		}
		if rest != "" && rest[0] == '"' {
			end := strings.IndexByte(rest[1:], '"')
			phrase := rest[1:]
			if end >= 0 {
				phrase, rest = rest[1:1+end], rest[2+end:]
			} else {
				rest = ""
			}
			add(term{words: words(phrase), raw: phrase, phrase: true, negate: negate})
			continue
		}
		end := strings.IndexFunc(rest, func(r rune) bool { return unicode.IsSpace(r) || r == '"' })
		tok := rest
		if end >= 0 {
			tok, rest = rest[:end], rest[end:]
		} else {
			rest = ""
		}
		if tok == "OR" && !negate {
			pendOR = len(out.all) > 0
			continue
		}
		// A token such as node.js is a phrase of its words, as the
		// tokenizers read it in the text.
		add(term{words: words(tok), raw: strings.TrimLeft(tok, "-"), negate: negate})
	}
	return out
}

// words splits text into runs of letters and digits.
func words(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// empty reports a query with no word that must appear: it matches nothing
// (a query of exclusions alone would otherwise read every row).
func (p parsed) empty() bool { return len(p.all) == 0 }

// terms lists the words that must appear, for excerpts.
func (p parsed) terms() []string {
	var out []string
	for _, c := range p.all {
		for _, t := range c {
			out = append(out, t.words...)
		}
	}
	return out
}

// positives lists the terms that must (or, for alternatives, may) appear.
func (p parsed) positives() []term {
	var out []term
	for _, c := range p.all {
		out = append(out, c...)
	}
	return out
}

// anyFTS5 is an FTS5 expression matching any of the positive terms: what
// finds the sections of a page that hold some of a query's words. Words
// every text holds (English stop words, which SQLite's index keeps) are
// left out when other terms remain: they would list every section.
func (p parsed) anyFTS5() string {
	var parts, common []string
	for _, t := range p.positives() {
		q := `"` + strings.Join(t.words, " ") + `"`
		if len(t.words) == 1 && stopWord[strings.ToLower(t.words[0])] {
			common = append(common, q)
			continue
		}
		parts = append(parts, q)
	}
	if len(parts) == 0 {
		parts = common
	}
	return strings.Join(parts, " OR ")
}

// stopWord are the commonest English words, which say nothing of where a
// query's subject is.
var stopWord = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields("a an and are as at be by can do does for from how i in is it not of on or that the this to was what when where which who why will with you your") {
		m[w] = true
	}
	return m
}()

// anyWebsearch is the same for websearch_to_tsquery (the terms as
// written, so that PostgreSQL's parser reads them as in the text).
func (p parsed) anyWebsearch() string {
	var parts []string
	for _, t := range p.positives() {
		if t.phrase {
			parts = append(parts, `"`+t.raw+`"`)
		} else {
			parts = append(parts, t.raw)
		}
	}
	return strings.Join(parts, " OR ")
}

// fts5 writes the query as an FTS5 expression: every word quoted (so that
// nothing in it is FTS5 syntax), clauses joined by AND, alternatives by
// OR, exclusions by NOT.
func (p parsed) fts5() string {
	var b strings.Builder
	phrase := func(t term) {
		b.WriteByte('"')
		b.WriteString(strings.Join(t.words, " "))
		b.WriteByte('"')
	}
	for i, c := range p.all {
		if i > 0 {
			b.WriteString(" AND ")
		}
		b.WriteByte('(')
		for j, t := range c {
			if j > 0 {
				b.WriteString(" OR ")
			}
			phrase(t)
		}
		b.WriteByte(')')
	}
	for _, t := range p.not {
		b.WriteString(" NOT ")
		phrase(t)
	}
	return b.String()
}
