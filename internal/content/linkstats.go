package content

import "encoding/json"

// BrokenBy counts the broken links among links that base does not hold
// broken: the same reference, to the same target, from the same page.
// With links those of a change request's content and base those of its
// space's current content, it is the number of links the change request
// broke (a link report's stats.broken.changeRequest).
func BrokenBy(links, base []Link) int {
	was := make(map[string]bool)
	for _, l := range base {
		if l.Status == LinkBroken {
			was[linkKey(l)] = true
		}
	}
	n := 0
	for _, l := range links {
		if l.Status == LinkBroken && !was[linkKey(l)] {
			n++
		}
	}
	return n
}

// linkKey names a reference by its page and its target as written.
func linkKey(l Link) string {
	// A ContentRef is a struct of strings: its encoding cannot fail and
	// is the same for the same target.
	b, _ := json.Marshal(l.Ref)
	return l.Page + "\x00" + string(b)
}
