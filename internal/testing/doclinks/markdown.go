package doclinks

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// Heading is an ATX heading of a page: its level (1 to 6), its text as
// written, and the line it is on (from 1).
type Heading struct {
	Level int
	Text  string
	Line  int
}

// Link is a link or image of a page: its target as written (URL, path,
// fragment), the line it is on (from 1), and whether it is an image.
type Link struct {
	Target string
	Line   int
	Image  bool
}

var (
	atx = regexp.MustCompile(`^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$`)
	// inline matches [text](target) and ![alt](target), with one level of
	// brackets nested in the text; the target may be in angle brackets
	// and followed by a title.
	inline = regexp.MustCompile(`(!?)\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*(<[^>]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)`)
	// definition matches a reference definition: [label]: target.
	definition = regexp.MustCompile(`(?m)^ {0,3}\[[^\]]+\]:[ \t]*(<[^>]*>|\S+)`)
	fence      = regexp.MustCompile("^ {0,3}(`{3,}|~{3,})")
)

// prose returns the page with what is not prose blanked out: fenced code
// blocks and inline code spans, each byte but line breaks replaced by a
// space, so that offsets and line numbers stay those of the page.
func prose(page string) string {
	lines := strings.Split(page, "\n")
	var open string // the fence that opened the current code block
	for i, l := range lines {
		m := fence.FindStringSubmatch(l)
		switch {
		case open == "" && m != nil:
			open = m[1]
			lines[i] = strings.Repeat(" ", len(l))
		case open != "":
			if m != nil && m[1][0] == open[0] && len(m[1]) >= len(open) && strings.TrimSpace(l[len(m[0]):]) == "" {
				open = ""
			}
			lines[i] = strings.Repeat(" ", len(l))
		}
	}
	return maskCode(strings.Join(lines, "\n"))
}

// maskCode blanks inline code spans. A span opens with a run of backticks
// and closes with the next run of the same length in the same paragraph
// (a blank line ends a paragraph); a run that is never closed is text.
func maskCode(s string) string {
	b := []byte(s)
	for i := 0; i < len(b); {
		if b[i] != '`' {
			i++
			continue
		}
		n := run(b, i)
		end := closing(b, i+n, n)
		if end < 0 {
			i += n
			continue
		}
		for j := i; j < end+n; j++ {
			if b[j] != '\n' {
				b[j] = ' '
			}
		}
		i = end + n
	}
	return string(b)
}

// run is the length of the run of backticks at b[i].
func run(b []byte, i int) int {
	n := 0
	for i+n < len(b) && b[i+n] == '`' {
		n++
	}
	return n
}

// closing finds, from b[i], a run of exactly n backticks before the end
// of the paragraph, or -1.
func closing(b []byte, i, n int) int {
	for i < len(b) {
		switch {
		case b[i] == '\n' && blankLineFollows(b, i):
			return -1
		case b[i] == '`':
			m := run(b, i)
			if m == n {
				return i
			}
			i += m
		default:
			i++
		}
	}
	return -1
}

// blankLineFollows tells whether the line after the line break at b[i] is
// blank.
func blankLineFollows(b []byte, i int) bool {
	for j := i + 1; j < len(b) && b[j] != '\n'; j++ {
		if b[j] != ' ' && b[j] != '\t' {
			return false
		}
	}
	return true
}

// Headings returns the ATX headings of a page, outside code blocks.
func Headings(page string) []Heading {
	var hs []Heading
	text := strings.Split(page, "\n")
	for i, l := range strings.Split(prose(page), "\n") {
		if m := atx.FindStringSubmatch(l); m != nil {
			// The heading's text as written (inline code included), from
			// the page rather than from its masked copy.
			if w := atx.FindStringSubmatch(text[i]); w != nil {
				hs = append(hs, Heading{Level: len(w[1]), Text: w[2], Line: i + 1})
			}
		}
	}
	return hs
}

// Links returns the links, images and reference definitions of a page,
// outside code.
func Links(page string) []Link {
	masked := prose(page)
	var ls []Link
	for _, m := range inline.FindAllStringSubmatchIndex(masked, -1) {
		target := strings.Trim(page[m[4]:m[5]], "<>")
		ls = append(ls, Link{Target: target, Line: 1 + strings.Count(masked[:m[0]], "\n"), Image: m[3] > m[2]})
	}
	for _, m := range definition.FindAllStringSubmatchIndex(masked, -1) {
		ls = append(ls, Link{Target: strings.Trim(page[m[2]:m[3]], "<>"), Line: 1 + strings.Count(masked[:m[0]], "\n")})
	}
	return ls
}

var (
	inlineLink = regexp.MustCompile(`!?\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\([^)]*\)`)
	emphasis   = regexp.MustCompile(`\*+`)
)

// Slug is GitHub's anchor for a heading's text: the text as rendered
// (links and images by their text, inline code by its content, without
// emphasis marks), lower case, without punctuation but hyphens and
// underscores, each space a hyphen.
func Slug(heading string) string {
	s := inlineLink.ReplaceAllString(heading, "$1")
	s = strings.ReplaceAll(s, "`", "")
	s = emphasis.ReplaceAllString(s, "")
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Anchors returns the anchors of a page's headings in order: each
// heading's Slug, and for a slug met before, the slug followed by -1, -2…
// as GitHub numbers them.
func Anchors(page string) []string {
	seen := map[string]int{}
	var as []string
	for _, h := range Headings(page) {
		s := Slug(h.Text)
		if n := seen[s]; n > 0 {
			as = append(as, s+"-"+strconv.Itoa(n))
		} else {
			as = append(as, s)
		}
		seen[s]++
	}
	return as
}
