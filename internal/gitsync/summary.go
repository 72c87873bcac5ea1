package gitsync

import (
	"strings"
	"unicode/utf8"

	"quire/internal/content"
)

// entry is an item of a SUMMARY.md: a link (or a bare title) with the
// items nested under it, or a group heading with its items.
type entry struct {
	title string
	// dest is the link's destination as written ("" for a bare title).
	dest  string
	group bool
	line  int
	kids  []*entry
}

// parseSummary reads a SUMMARY.md: list items of the form
// "* [Title](path.md)" (any bullet or ordered marker), nested by
// indentation, and headings after the first that start groups (the items
// that follow belong to them). The first level-1 heading is the table's
// title. Other lines are ignored. It reads a line at a time, in time
// linear in its size, and refuses more than maxItems items or items
// nested deeper than content.MaxTreeDepth.
func parseSummary(md string, maxItems int) ([]*entry, error) {
	var (
		roots  []*entry
		group  *entry
		stack  []*entry // open items, outermost first
		indent []int    // their indentation
		seenH1 bool
		items  int
	)
	add := func(e *entry, width int) error {
		for len(stack) > 0 && indent[len(indent)-1] >= width {
			stack, indent = stack[:len(stack)-1], indent[:len(indent)-1]
		}
		if len(stack) >= content.MaxTreeDepth {
			return contentErr("SUMMARY.md line %d: items nest more than %d levels deep", e.line, content.MaxTreeDepth)
		}
		switch {
		case len(stack) > 0:
			p := stack[len(stack)-1]
			p.kids = append(p.kids, e)
		case group != nil:
			group.kids = append(group.kids, e)
		default:
			roots = append(roots, e)
		}
		stack, indent = append(stack, e), append(indent, width)
		return nil
	}
	lines := strings.Split(strings.ReplaceAll(md, "\r\n", "\n"), "\n")
	inFence := false
	for i, line := range lines {
		n := i + 1
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			inFence = !inFence
			continue
		}
		if inFence || trimmed == "" {
			continue
		}
		if level, title, ok := heading(trimmed); ok && width(line) < 4 {
			if level == 1 && !seenH1 && group == nil && len(roots) == 0 {
				seenH1 = true
				continue
			}
			items++
			if items > maxItems {
				return nil, contentErr("SUMMARY.md lists more than %d pages (the limit)", maxItems)
			}
			group = &entry{title: title, group: true, line: n}
			roots = append(roots, group)
			stack, indent = nil, nil
			continue
		}
		w := width(line)
		rest, ok := listMarker(strings.TrimLeft(line, " \t"))
		if !ok {
			continue
		}
		e := &entry{line: n}
		if title, dest, ok := link(rest); ok {
			e.title, e.dest = title, dest
		} else {
			e.title = plainTitle(rest)
		}
		if e.title == "" && e.dest == "" {
			continue
		}
		items++
		if items > maxItems {
			return nil, contentErr("SUMMARY.md lists more than %d pages (the limit)", maxItems)
		}
		if err := add(e, w); err != nil {
			return nil, err
		}
	}
	return roots, nil
}

// width is the indentation of a line, a tab counting 4.
func width(line string) int {
	w := 0
	for _, r := range line {
		switch r {
		case ' ':
			w++
		case '\t':
			w += 4 - w%4
		default:
			return w
		}
	}
	return w
}

// heading reads an ATX heading.
func heading(s string) (int, string, bool) {
	level := 0
	for level < len(s) && s[level] == '#' {
		level++
	}
	if level == 0 || level > 6 || (level < len(s) && s[level] != ' ' && s[level] != '\t') {
		return 0, "", false
	}
	title := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(s[level:]), "#"))
	return level, plainTitle(title), true
}

// listMarker strips a list item's marker: -, *, + or 1. / 1).
func listMarker(s string) (string, bool) {
	if len(s) >= 2 && (s[0] == '-' || s[0] == '*' || s[0] == '+') && (s[1] == ' ' || s[1] == '\t') {
		return strings.TrimSpace(s[2:]), true
	}
	i := 0
	for i < len(s) && i < 9 && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i > 0 && i+1 < len(s) && (s[i] == '.' || s[i] == ')') && (s[i+1] == ' ' || s[i+1] == '\t') {
		return strings.TrimSpace(s[i+2:]), true
	}
	return "", false
}

// link reads "[text](dest "title")" at the start of s: the text (as plain
// text) and the destination, unescaped.
func link(s string) (string, string, bool) {
	if !strings.HasPrefix(s, "[") {
		return "", "", false
	}
	depth, i := 0, 0
	for i = 1; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			i++
			continue
		}
		if c == '[' {
			depth++
		} else if c == ']' {
			if depth == 0 {
				break
			}
			depth--
		}
	}
	text := s[1:min(i, len(s))]
	if i >= len(s) || i+1 >= len(s) || s[i+1] != '(' {
		return "", "", false
	}
	rest := s[i+2:]
	var dest string
	if strings.HasPrefix(rest, "<") {
		end := strings.IndexByte(rest, '>')
		if end < 0 {
			return "", "", false
		}
		dest = rest[1:end]
	} else {
		var b strings.Builder
		parens := 0
	scan:
		for j := 0; j < len(rest); j++ {
			c := rest[j]
			switch {
			case c == '\\' && j+1 < len(rest):
				b.WriteByte(rest[j+1])
				j++
				continue
			case c == '(':
				parens++
			case c == ')':
				if parens == 0 {
					break scan
				}
				parens--
			case c == ' ' || c == '\t':
				break scan
			}
			b.WriteByte(c)
		}
		dest = b.String()
	}
	return plainTitle(text), strings.TrimSpace(dest), true
}

// plainTitle reads a title written in Markdown as text: backslash escapes
// give their character, unescaped emphasis and code markers (* and `) are
// dropped; white space is collapsed and the length bounded.
func plainTitle(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && strings.IndexByte("\\`*_{}[]()#+-.!<>|~", s[i+1]) >= 0:
			b.WriteByte(s[i+1])
			i++
		case c == '*' || c == '`':
		default:
			b.WriteByte(c)
		}
	}
	s = strings.Join(strings.Fields(b.String()), " ")
	if utf8.RuneCountInString(s) > content.MaxTitle {
		s = strings.TrimSpace(string([]rune(s)[:content.MaxTitle]))
	}
	return s
}
