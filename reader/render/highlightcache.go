package render

import (
	"strings"
	"sync"
)

// Highlighting is most of the cost of rendering a page with code, and the
// same code blocks are rendered on every view of a page: highlighted lines
// are kept by syntax and source. The cache holds the result of a pure
// function, so replicas that share a database never disagree because of
// it; it is bounded by the bytes it holds and starts over when full.
const maxHighlightCache = 32 << 20

var hcache = struct {
	sync.Mutex
	m     map[string][]string
	bytes int
}{m: map[string][]string{}}

// highlightCached is highlight, remembered.
func highlightCached(syntax string, lines []string) []string {
	if syntax == "" || len(lines) == 0 {
		return nil
	}
	key := syntax + "\x00" + strings.Join(lines, "\n")
	hcache.Lock()
	out, ok := hcache.m[key]
	hcache.Unlock()
	if ok {
		return out
	}
	out = highlight(syntax, lines)
	size := 2 * len(key)
	for _, l := range out {
		size += len(l)
	}
	hcache.Lock()
	if hcache.bytes+size > maxHighlightCache {
		hcache.m, hcache.bytes = map[string][]string{}, 0
	}
	if size <= maxHighlightCache/4 {
		hcache.m[key] = out
		hcache.bytes += size
	}
	hcache.Unlock()
	return out
}
