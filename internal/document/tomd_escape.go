package document

import (
	"regexp"
	"strconv"
	"strings"
)

var entityLike = regexp.MustCompile(`^&(?:#[xX][0-9a-fA-F]+|#[0-9]+|[A-Za-z][A-Za-z0-9]*);`)

// escapeText backslash-escapes what Markdown would otherwise read as syntax.
// atLineStart adds the escapes needed at the start of a line (block
// markers); beforeLink escapes a final '!' that would turn a following link
// into an image.
func escapeText(s string, mode inlineMode, atLineStart, beforeLink bool) string {
	return escapeTextIn(s, mode, atLineStart, beforeLink, false)
}

// escapeTextIn is escapeText; inLink drops the escapes that keep URLs from
// being autolinked, which never happens inside a link's text.
func escapeTextIn(s string, mode inlineMode, atLineStart, beforeLink, inLink bool) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); i++ {
		c := s[i]
		esc := false
		switch c {
		case '~':
			// goldmark counts an escaped tilde into a neighbouring
			// strikethrough delimiter run; an entity stays out of it.
			if i == 0 || i == len(s)-1 {
				b.WriteString("&#126;")
				continue
			}
			esc = true
		case '\\', '`', '*', '[', ']', '<', '|':
			esc = true
		case '_':
			esc = !(i > 0 && isAlnum(s[i-1]) && i+1 < len(s) && isAlnum(s[i+1]))
		case '$':
			esc = i == 0 || i == len(s)-1 || s[i-1] == '$' || s[i+1] == '$'
		case '&':
			esc = entityLike.MatchString(s[i:])
		case '{':
			esc = mode == modeHeading || (i+1 < len(s) && s[i+1] == '%')
		case '!':
			esc = beforeLink && i == len(s)-1
		case ':':
			// Keep text that looks like a URL from being autolinked.
			esc = (atLineStart && i == 0) || (!inLink && i > 0 && isAlnum(s[i-1]) && strings.HasPrefix(s[i+1:], "//"))
		case '.':
			esc = !inLink && i >= 3 && strings.EqualFold(s[i-3:i], "www")
		case '@':
			esc = !inLink && i > 0 && i+1 < len(s) && s[i-1] != ' ' && isAlnum(s[i+1])
		case '#', '>', '+', '-', '=':
			esc = atLineStart && i == 0
		case '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
			if atLineStart && i == 0 {
				j := 0
				for j < len(s) && j < 10 && s[j] >= '0' && s[j] <= '9' {
					j++
				}
				if j < len(s) && j <= 9 && (s[j] == '.' || s[j] == ')') {
					b.WriteString(s[:j])
					b.WriteByte('\\')
					b.WriteByte(s[j])
					i = j
					continue
				}
			}
		}
		if esc {
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String()
}

// escapeDest writes a link destination so that it parses back unchanged.
func escapeDest(u string, mode inlineMode) string {
	var b strings.Builder
	angle := false
	for i := 0; i < len(u); i++ {
		c := u[i]
		switch {
		case c == '\n' || c == '\r' || c < ' ' || c == 0x7f:
			b.WriteString("%" + strings.ToUpper(strconv.FormatInt(int64(c)+0x100, 16)[1:]))
			continue
		case c == ' ' || c == '\t':
			angle = true
		case c == '\\' || c == '<' || c == '>' || c == '(' || c == ')':
			b.WriteByte('\\')
		case c == '|' && mode == modeTable:
			b.WriteByte('\\')
		case c == '&' && entityLike.MatchString(u[i:]):
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	if angle {
		return "<" + b.String() + ">"
	}
	return b.String()
}

func escapeTitle(s string, mode inlineMode) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' || c == '"':
			b.WriteByte('\\')
		case c == '|' && mode == modeTable:
			b.WriteByte('\\')
		case c == '&' && entityLike.MatchString(s[i:]):
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String()
}
