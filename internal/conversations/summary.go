package conversations

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"quire/ent/schema"
	"quire/internal/document"
	"quire/internal/textcluster"
)

// keyTermCount is how many terms a cluster's label and key terms show.
const (
	labelTerms = 3
	keyTerms   = 8
	maxForms   = 5
	examples   = 5
)

// formOf is the spelling of a stem seen most often in a cluster (ties: the
// first in alphabetical order).
func formOf(forms map[string]map[string]int, stem string) string {
	best, n := stem, 0
	keys := make([]string, 0, len(forms[stem]))
	for f := range forms[stem] {
		keys = append(keys, f)
	}
	sort.Strings(keys)
	for _, f := range keys {
		if c := forms[stem][f]; c > n {
			best, n = f, c
		}
	}
	return best
}

// label names a cluster by its most characteristic terms: "Export, pdf,
// blank".
func label(terms []string) string {
	if len(terms) == 0 {
		return "Unlabelled issues"
	}
	if len(terms) > labelTerms {
		terms = terms[:labelTerms]
	}
	s := strings.Join(terms, ", ")
	r, size := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[size:]
}

// icons maps the terms (stems) of common support topics to an icon name
// (Font Awesome's, as the API's icons are); the first key term with an
// icon chooses it.
var icons = map[string]string{
	"login": "right-to-bracket", "log": "right-to-bracket", "sign": "right-to-bracket", "sso": "key", "saml": "key",
	"password": "key", "2fa": "shield-halved", "auth": "shield-halved", "authent": "shield-halved", "token": "key",
	"permiss": "user-lock", "access": "user-lock", "invit": "user-plus", "member": "users", "user": "user", "role": "user-lock",
	"billing": "credit-card", "invoic": "file-invoice", "payment": "credit-card", "charg": "credit-card", "card": "credit-card",
	"subscript": "credit-card", "plan": "credit-card", "vat": "file-invoice", "refund": "credit-card",
	"export": "file-export", "pdf": "file-pdf", "download": "download", "import": "file-import", "upload": "upload",
	"imag": "image", "file": "file",
	"search": "magnifying-glass", "find": "magnifying-glass",
	"slow": "gauge", "perform": "gauge", "timeout": "clock", "load": "spinner", "latenc": "gauge",
	"git": "code-branch", "github": "code-branch", "gitlab": "code-branch", "sync": "rotate", "branch": "code-branch", "merg": "code-merge",
	"api": "code", "webhook": "code", "integr": "plug", "plugin": "plug",
	"domain": "globe", "dns": "globe", "ssl": "lock", "certif": "lock", "publish": "globe", "site": "globe",
	"email": "envelope", "notif": "bell", "mail": "envelope",
	"editor": "pen", "edit": "pen", "page": "file-lines", "tabl": "table", "format": "paragraph", "markdown": "markdown",
	"translat": "language", "languag": "language",
	"crash": "bug", "error": "bug", "bug": "bug", "500": "bug",
	"mobil": "mobile", "app": "mobile", "dark": "moon", "theme": "palette",
}

func iconOf(stems []string) string {
	for _, s := range stems {
		if ic, ok := icons[s]; ok {
			return ic
		}
	}
	return "circle-question"
}

// clusterImpact is the impact of the most severe of a cluster's issues.
func clusterImpact(impacts map[string]int) string {
	for _, i := range []string{ImpactHigh, ImpactMedium, ImpactLow} {
		if impacts[i] > 0 {
			return i
		}
	}
	return ImpactLow
}

// summaryDoc is a cluster's summary: how many issues and conversations it
// holds and about what, their impacts, and the issues closest to its
// centroid.
func summaryDoc(lbl string, issues, conversations int, impacts map[string]int, terms []string, ex []schema.ClusterExample) string {
	p := func(s string) document.Node {
		return document.NewBlock(document.BlockParagraph, nil, document.NewText(s))
	}
	plural := func(n int, one, many string) string {
		if n == 1 {
			return fmt.Sprintf("%d %s", n, one)
		}
		return fmt.Sprintf("%d %s", n, many)
	}
	nodes := []document.Node{
		p(fmt.Sprintf("%s from %s about %s.", plural(issues, "issue", "issues"),
			plural(conversations, "conversation", "conversations"), strings.Join(terms, ", "))),
	}
	var parts []string
	for _, i := range []string{ImpactHigh, ImpactMedium, ImpactLow} {
		if impacts[i] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", impacts[i], i))
		}
	}
	if len(parts) > 0 {
		nodes = append(nodes, p("Impact: "+strings.Join(parts, ", ")+"."))
	}
	if len(ex) > 0 {
		nodes = append(nodes, p("Most representative issues:"))
		var items []document.Node
		for _, e := range ex {
			items = append(items, document.NewBlock(document.BlockListItem, nil, p(e.Title)))
		}
		nodes = append(nodes, document.NewBlock(document.BlockListUnordered, nil, items...))
	}
	_ = lbl
	return encodeDoc(nodes)
}

// detailsDoc is an issue's details: the user's words, and the impact with
// the signals that decided it.
func detailsDoc(f Found, conversation string) string {
	p := func(s string) document.Node {
		return document.NewBlock(document.BlockParagraph, nil, document.NewText(s))
	}
	var quoted []document.Node
	for _, s := range f.Sentences {
		quoted = append(quoted, p(s))
	}
	nodes := []document.Node{p("Raised in " + conversation + ":")}
	if len(quoted) > 0 {
		nodes = append(nodes, document.NewBlock(document.BlockQuote, nil, quoted...))
	}
	why := "Impact: " + f.Impact
	var sig []string
	for _, s := range f.Signals {
		sig = append(sig, fmt.Sprintf("%s (%q)", s.Kind, s.Phrase))
	}
	if len(sig) > 0 {
		why += ", from the signals " + strings.Join(sig, ", ")
	} else {
		why += ": no sign of failure, blocking or data loss"
	}
	nodes = append(nodes, p(why+"."))
	return encodeDoc(nodes)
}

// encodeDoc writes a document of nodes as the API's JSON document.
func encodeDoc(nodes []document.Node) string {
	b, err := json.Marshal(document.Document{Data: map[string]any{}, Nodes: nodes})
	if err != nil {
		// Built here from plain text: it always encodes.
		panic("conversations: encode document: " + err.Error())
	}
	return string(b)
}

// rankExamples keeps the issues closest to a cluster's centroid.
func rankExamples(list []schema.ClusterExample, centroid textcluster.Vector, c *textcluster.Corpus) []schema.ClusterExample {
	w := c.Weighted(centroid)
	type scored struct {
		e schema.ClusterExample
		s float64
	}
	sc := make([]scored, len(list))
	for i, e := range list {
		sc[i] = scored{e, textcluster.Cosine(c.Weighted(textcluster.TF(e.Terms)), w)}
	}
	sort.SliceStable(sc, func(i, j int) bool {
		if sc[i].s != sc[j].s {
			return sc[i].s > sc[j].s
		}
		return sc[i].e.Issue < sc[j].e.Issue
	})
	out := make([]schema.ClusterExample, 0, examples)
	for i := 0; i < len(sc) && i < examples; i++ {
		out = append(out, sc[i].e)
	}
	return out
}
