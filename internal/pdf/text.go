package pdf

import (
	"net/url"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// rgb is a color.
type rgb struct{ r, g, b int }

// tstyle is the resolved style of a piece of text.
type tstyle struct {
	family                          string  // "Helvetica" or "Courier"
	size                            float64 // points
	bold, italic, underline, strike bool
	color                           rgb
	link                            string // clickable URL, "" for none
}

// fontStyle returns the fpdf style string for st.
func (st tstyle) fontStyle() string {
	s := ""
	if st.bold {
		s += "B"
	}
	if st.italic {
		s += "I"
	}
	if st.underline {
		s += "U"
	}
	if st.strike {
		s += "S"
	}
	return s
}

// token is a word, a run of spaces or a hard line break, in cp1252.
type token struct {
	text  string
	st    tstyle
	w     float64
	space bool
	br    bool
}

// tline is one laid-out line of tokens.
type tline struct {
	toks []token
	w    float64
}

// ---- character encoding ----

// enc converts UTF-8 text to cp1252 for the core fonts. Newlines are kept,
// tabs become spaces, other control characters and invisible characters are
// dropped, and characters that cp1252 cannot represent become '?'.
func (r *renderer) enc(s string) string {
	if s == "" {
		return ""
	}
	s = norm.NFC.String(s)
	var b strings.Builder
	b.Grow(len(s))
	for _, c := range s {
		switch {
		case c == '\n':
			b.WriteByte('\n')
		case c == '\t':
			b.WriteByte(' ')
		case c < 0x20 || (c >= 0x7f && c < 0xa0):
			// control characters (C0, DEL, C1)
		case c < 0x80:
			b.WriteByte(byte(c))
		case invisible(c):
		default:
			b.WriteByte(r.encRune(c))
		}
	}
	return b.String()
}

// encRune maps one non-ASCII rune to its cp1252 byte, or '?'.
func (r *renderer) encRune(c rune) byte {
	if ch, ok := r.cp1252[c]; ok {
		return ch
	}
	ch := byte('?')
	if t := r.tr(string(c)); len(t) == 1 && t != "." {
		// fpdf's translator maps unknown runes to '.'.
		ch = t[0]
	}
	r.cp1252[c] = ch
	return ch
}

// representable reports whether s survives enc unchanged (ignoring
// invisible characters), i.e. has no character outside cp1252.
func (r *renderer) representable(s string) bool {
	for _, c := range norm.NFC.String(s) {
		if c >= 0x80 && !invisible(c) && r.encRune(c) == '?' {
			return false
		}
	}
	return true
}

// invisible reports zero-width characters, variation selectors, emoji
// modifiers and tag characters, which are dropped rather than replaced.
func invisible(c rune) bool {
	switch {
	case c == 0xad: // soft hyphen
		return true
	case c >= 0x200b && c <= 0x200f, c >= 0x2060 && c <= 0x2064, c == 0xfeff:
		return true
	case c >= 0xfe00 && c <= 0xfe0f, c >= 0xe0100 && c <= 0xe01ef:
		return true
	case c >= 0x1f3fb && c <= 0x1f3ff: // skin tone modifiers
		return true
	case c >= 0xe0020 && c <= 0xe007f: // tag characters (flag sequences)
		return true
	case c >= 0x0300 && c <= 0x036f: // combining marks NFC could not compose
		return true
	}
	return false
}

// utf16Text encodes s as a PDF text string in UTF-16BE with a byte order
// mark, for outline titles (fpdf escapes it when writing).
func utf16Text(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "?")
	}
	units := utf16.Encode([]rune(s))
	b := make([]byte, 0, 2+2*len(units))
	b = append(b, 0xfe, 0xff)
	for _, u := range units {
		b = append(b, byte(u>>8), byte(u))
	}
	return string(b)
}

// safeLink returns the URI to use for a clickable link, or "" when the link
// should not be clickable (relative, or a scheme other than http, https and
// mailto). Non-ASCII bytes and spaces are percent-encoded, as PDF URIs must
// be 7-bit ASCII.
func safeLink(link string) string {
	link = strings.TrimSpace(link)
	u, err := url.Parse(link)
	if err != nil {
		return ""
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
		if u.Host == "" {
			return ""
		}
	case "mailto":
	default:
		return ""
	}
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(link); i++ {
		c := link[i]
		if c <= 0x20 || c >= 0x7f {
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// ---- measuring and layout ----

// width measures cp1252 text in style st.
func (r *renderer) width(s string, st tstyle) float64 {
	if s == "" {
		return 0
	}
	r.meas.SetFont(st.family, strings.Trim(st.fontStyle(), "US"), st.size)
	return r.meas.GetStringWidth(s)
}

// spanStyle resolves the style of a span on top of a base style.
func spanStyle(sp Span, base tstyle) tstyle {
	st := base
	if sp.Bold {
		st.bold = true
	}
	if sp.Italic {
		st.italic = true
	}
	if sp.Strike {
		st.strike = true
	}
	if sp.Code {
		st.family = "Courier"
		st.size = base.size * 0.92
		if st.color == colText || st.color == colQuote {
			st.color = colInlineCode
		}
	}
	if sp.Link != "" {
		if l := safeLink(sp.Link); l != "" {
			st.link = l
			st.underline = true
			st.color = colLink
		}
	}
	return st
}

// tokens splits spans into words, spaces and line breaks.
func (r *renderer) tokens(spans []Span, base tstyle) []token {
	var out []token
	for _, sp := range spans {
		out = r.appendTokens(out, r.enc(sp.Text), spanStyle(sp, base))
	}
	return out
}

// appendTokens splits cp1252 text s into tokens of style st.
func (r *renderer) appendTokens(out []token, s string, st tstyle) []token {
	for len(s) > 0 {
		switch s[0] {
		case '\n':
			out = append(out, token{br: true, st: st})
			s = s[1:]
		case ' ':
			n := len(s) - len(strings.TrimLeft(s, " "))
			out = append(out, token{text: s[:n], st: st, space: true})
			s = s[n:]
		default:
			n := strings.IndexAny(s, " \n")
			if n < 0 {
				n = len(s)
			}
			out = append(out, token{text: s[:n], st: st})
			s = s[n:]
		}
	}
	return out
}

// layout breaks tokens into lines no wider than maxW. Spaces at the start
// and end of lines are dropped; words wider than a line are split.
func (r *renderer) layout(toks []token, maxW float64) []tline {
	const eps = 1e-6
	var lines []tline
	var cur tline
	flush := func() {
		for len(cur.toks) > 0 && cur.toks[len(cur.toks)-1].space {
			cur.w -= cur.toks[len(cur.toks)-1].w
			cur.toks = cur.toks[:len(cur.toks)-1]
		}
		lines = append(lines, cur)
		cur = tline{}
	}
	add := func(t token) {
		cur.toks = append(cur.toks, t)
		cur.w += t.w
	}
	for _, t := range toks {
		switch {
		case t.br:
			flush()
		case t.space:
			if len(cur.toks) == 0 {
				continue
			}
			t.w = r.width(t.text, t.st)
			add(t)
		default:
			t.w = r.width(t.text, t.st)
			if len(cur.toks) > 0 && cur.w+t.w > maxW+eps {
				flush()
			}
			// A column narrower than one character still takes one per
			// line; the check on the text ends the loop when rounding
			// leaves a width for an empty rest.
			for t.text != "" && t.w > maxW-cur.w+eps {
				n := r.fitPrefix(t.text, t.st, maxW-cur.w)
				if n == 0 {
					if len(cur.toks) > 0 {
						flush()
						continue
					}
					n = 1
				}
				head := t
				head.text = t.text[:n]
				head.w = r.width(head.text, head.st)
				add(head)
				flush()
				t.text = t.text[n:]
				t.w -= head.w // core font widths are additive (no kerning)
			}
			if t.text != "" {
				add(t)
			}
		}
	}
	if len(cur.toks) > 0 {
		flush()
	}
	return lines
}

// fitPrefix returns the number of bytes of s (cp1252) that fit in w.
func (r *renderer) fitPrefix(s string, st tstyle, w float64) int {
	total := 0.0
	for n := 0; n < len(s); n++ {
		total += r.width(s[n:n+1], st)
		if total > w+1e-6 {
			return n
		}
	}
	return len(s)
}

// truncate shortens cp1252 text to fit in w, adding an ellipsis.
func (r *renderer) truncate(s string, st tstyle, w float64) string {
	if r.width(s, st) <= w {
		return s
	}
	const ell = "\x85" // … in cp1252
	n := r.fitPrefix(s, st, w-r.width(ell, st))
	return strings.TrimRight(s[:n], " ") + ell
}

// drawLine draws a laid-out line with its top-left corner at (x, y).
func (r *renderer) drawLine(l tline, x, y, lh float64) {
	for i := 0; i < len(l.toks); {
		// Merge consecutive tokens of the same style into one cell.
		st := l.toks[i].st
		var text strings.Builder
		w := 0.0
		j := i
		for ; j < len(l.toks) && l.toks[j].st == st; j++ {
			if l.toks[j].br {
				continue
			}
			text.WriteString(l.toks[j].text)
			w += l.toks[j].w
		}
		i = j
		if text.Len() == 0 {
			continue
		}
		r.useStyle(st)
		r.pdf.SetXY(x, y)
		r.pdf.CellFormat(w, lh, text.String(), "", 0, "L", false, 0, st.link)
		x += w
	}
}

// useStyle selects the font and text color of st on the output document.
func (r *renderer) useStyle(st tstyle) {
	r.pdf.SetFont(st.family, st.fontStyle(), st.size)
	r.pdf.SetTextColor(st.color.r, st.color.g, st.color.b)
}

// plainText concatenates the text of spans.
func plainText(spans []Span) string {
	var b strings.Builder
	for _, sp := range spans {
		b.WriteString(sp.Text)
	}
	return b.String()
}
