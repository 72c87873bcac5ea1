package document

import (
	"bytes"
	"regexp"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// markdown is the shared goldmark instance: CommonMark plus the GFM
// extensions (tables, task lists, strikethrough, autolinks), heading
// attributes ({#id}) and Quire's own blocks (liquid tags, <details>, $$ math),
// with the guards of mdguard.go.
var markdown = goldmark.New(
	goldmark.WithParser(parser.NewParser(
		parser.WithBlockParsers(blockParsers()...),
		parser.WithInlineParsers(parser.DefaultInlineParsers()...),
		parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...),
	)),
	goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.Linkify,
		extension.TaskList, quireExtension{}),
	goldmark.WithParserOptions(parser.WithHeadingAttribute()),
)

type quireExtension struct{}

func (quireExtension) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(
		parser.WithBlockParsers(
			util.Prioritized(liquidParser{}, 650),
			util.Prioritized(mathBlockParser{}, 650),
			util.Prioritized(detailsParser{}, 850),
		),
		parser.WithInlineParsers(util.Prioritized(inlineMathParser{}, 150),
			// Before every parser of the characters it counts.
			util.Prioritized(delimiterGuard{}, 0)),
	)
}

// liquid container tags and their closing tag; the others are leaf tags
// whose body is raw text.
var liquidContainers = map[string]bool{
	"hint": true, "tabs": true, "tab": true, "stepper": true, "step": true,
	"columns": true, "column": true, "code": true,
}

var liquidLeaves = map[string]bool{"file": true, "content-ref": true, "embed": true}

var kindLiquid = ast.NewNodeKind("QuireLiquid")

// liquidBlock is a {% name attr="value" %} ... {% endname %} block.
type liquidBlock struct {
	ast.BaseBlock
	name  string
	attrs map[string]string
	body  []string // raw lines of a leaf tag
	done  bool     // leaf tag closed on its opening line
}

func (n *liquidBlock) Kind() ast.NodeKind { return kindLiquid }

func (n *liquidBlock) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"name": n.name}, nil)
}

// parseLiquidTag reads "{% name key="value" ... %}" at the start of s
// (leading spaces allowed) and returns the rest of s after "%}".
func parseLiquidTag(s []byte) (name string, attrs map[string]string, rest []byte, ok bool) {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	if !bytes.HasPrefix(s[i:], []byte("{%")) {
		return "", nil, nil, false
	}
	i += 2
	skip := func() {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
	}
	skip()
	start := i
	for i < len(s) && (s[i] == '-' || s[i] == '_' || isAlnum(s[i])) {
		i++
	}
	name = string(s[start:i])
	if name == "" {
		return "", nil, nil, false
	}
	attrs = map[string]string{}
	for {
		skip()
		if i >= len(s) {
			return "", nil, nil, false
		}
		if bytes.HasPrefix(s[i:], []byte("%}")) {
			return name, attrs, s[i+2:], true
		}
		ks := i
		for i < len(s) && (s[i] == '-' || s[i] == '_' || isAlnum(s[i])) {
			i++
		}
		key := string(s[ks:i])
		if key == "" || i >= len(s) || s[i] != '=' {
			return "", nil, nil, false
		}
		i++
		if i >= len(s) {
			return "", nil, nil, false
		}
		var val strings.Builder
		if q := s[i]; q == '"' || q == '\'' {
			i++
			for {
				if i >= len(s) || s[i] == '\n' {
					return "", nil, nil, false
				}
				c := s[i]
				if c == '\\' && i+1 < len(s) && (s[i+1] == q || s[i+1] == '\\') {
					val.WriteByte(s[i+1])
					i += 2
					continue
				}
				i++
				if c == q {
					break
				}
				val.WriteByte(c)
			}
		} else {
			for i < len(s) && s[i] != ' ' && s[i] != '\t' && s[i] != '\n' && !bytes.HasPrefix(s[i:], []byte("%}")) {
				val.WriteByte(s[i])
				i++
			}
		}
		attrs[key] = val.String()
	}
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// isEndTag reports whether line holds only "{% endname %}".
func isEndTag(line []byte, name string) bool {
	n, attrs, rest, ok := parseLiquidTag(line)
	return ok && n == "end"+name && len(attrs) == 0 && util.IsBlank(rest)
}

// indexEndTag finds "{% endname %}" in s.
func indexEndTag(s []byte, name string) (start, end int) {
	re := endTagPattern(name)
	loc := re.FindIndex(s)
	if loc == nil {
		return -1, -1
	}
	return loc[0], loc[1]
}

var endTagPatterns = map[string]*regexp.Regexp{}

func init() {
	for name := range liquidLeaves {
		endTagPatterns[name] = regexp.MustCompile(`\{%\s*end` + regexp.QuoteMeta(name) + `\s*%\}`)
	}
}

func endTagPattern(name string) *regexp.Regexp { return endTagPatterns[name] }

type liquidParser struct{}

func (liquidParser) Trigger() []byte { return []byte{'{'} }

func (liquidParser) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	line, _ := reader.PeekLine()
	pos := pc.BlockOffset()
	if pos < 0 || pos >= len(line) {
		return nil, parser.NoChildren
	}
	name, attrs, rest, ok := parseLiquidTag(line[pos:])
	if !ok {
		return nil, parser.NoChildren
	}
	n := &liquidBlock{name: name, attrs: attrs}
	switch {
	case liquidContainers[name]:
		if !util.IsBlank(rest) || !mayOpenContainer(parent, reader, pc) {
			return nil, parser.NoChildren
		}
		reader.AdvanceToEOL()
		return n, parser.HasChildren
	case name == "embed":
		n.done = true
		return n, parser.NoChildren
	case liquidLeaves[name]:
		if s, e := indexEndTag(rest, name); s >= 0 {
			if !util.IsBlank(rest[e:]) {
				return nil, parser.NoChildren
			}
			n.body = append(n.body, string(rest[:s]))
			n.done = true
		} else if !util.IsBlank(rest) {
			n.body = append(n.body, string(rest))
		}
		return n, parser.NoChildren
	}
	return nil, parser.NoChildren
}

func (liquidParser) Continue(node ast.Node, reader text.Reader, pc parser.Context) parser.State {
	n := node.(*liquidBlock)
	line, _ := reader.PeekLine()
	if n.done {
		if n.name == "embed" && isEndTag(line, "embed") {
			reader.AdvanceToEOL()
		}
		return parser.Close
	}
	if liquidLeaves[n.name] {
		if util.IsBlank(line) {
			// An unclosed tag ends at the first blank line.
			return parser.Close
		}
		if s, _ := indexEndTag(line, n.name); s >= 0 {
			n.body = append(n.body, string(line[:s]))
			reader.AdvanceToEOL()
			return parser.Close
		}
		n.body = append(n.body, string(line))
		return parser.Continue | parser.NoChildren
	}
	if isEndTag(line, n.name) && !insideRaw(node, pc) && !nestedOpen(node, pc) {
		reader.AdvanceToEOL()
		return parser.Close
	}
	return parser.Continue | parser.HasChildren
}

// nestedOpen reports whether a block of the same kind (and tag) is open
// inside container; a closing tag belongs to the innermost one.
func nestedOpen(container ast.Node, pc parser.Context) bool {
	blocks := pc.OpenedBlocks()
	seen := false
	for _, b := range blocks {
		if b.Node == container {
			seen = true
			continue
		}
		if !seen {
			continue
		}
		switch x := b.Node.(type) {
		case *liquidBlock:
			if c, ok := container.(*liquidBlock); ok && c.name == x.name {
				return true
			}
		case *detailsBlock:
			if _, ok := container.(*detailsBlock); ok {
				return true
			}
		}
	}
	return false
}

// insideRaw reports whether the innermost open block below container holds
// raw lines (a fenced code block, math or a leaf tag), which must see a
// closing tag as content.
func insideRaw(container ast.Node, pc parser.Context) bool {
	last := pc.LastOpenedBlock().Node
	if last == nil || last == container {
		return false
	}
	switch x := last.(type) {
	case *ast.FencedCodeBlock, *mathBlock:
		return true
	case *liquidBlock:
		return liquidLeaves[x.name] && !x.done
	}
	return false
}

func (liquidParser) Close(node ast.Node, reader text.Reader, pc parser.Context) {}
func (liquidParser) CanInterruptParagraph() bool                                { return true }
func (liquidParser) CanAcceptIndentedLine() bool                                { return false }

var kindDetails = ast.NewNodeKind("QuireDetails")

// detailsBlock is <details><summary>title</summary> ... </details>.
type detailsBlock struct {
	ast.BaseBlock
	title    string
	hasTitle bool
	offset   int // of the opening line in the source
}

func (n *detailsBlock) Kind() ast.NodeKind { return kindDetails }

func (n *detailsBlock) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"title": n.title}, nil)
}

var (
	detailsOpen   = regexp.MustCompile(`(?i)^<details(?:\s[^>]*)?>[ \t]*(?:<summary>(.*?)</summary>)?[ \t]*\n?$`)
	detailsClose  = regexp.MustCompile(`(?i)^[ \t]*</details>[ \t]*\n?$`)
	summaryAlone  = regexp.MustCompile(`(?i)^[ \t]*<summary>(.*?)</summary>[ \t]*\n?$`)
	mathDelimiter = regexp.MustCompile(`^[ \t]*\$\$[ \t]*\n?$`)
)

type detailsParser struct{}

func (detailsParser) Trigger() []byte { return []byte{'<'} }

func (detailsParser) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	line, _ := reader.PeekLine()
	pos := pc.BlockOffset()
	if pos < 0 || pos >= len(line) {
		return nil, parser.NoChildren
	}
	m := detailsOpen.FindSubmatchIndex(line[pos:])
	if m == nil || !mayOpenContainer(parent, reader, pc) {
		return nil, parser.NoChildren
	}
	_, seg := reader.Position()
	n := &detailsBlock{offset: seg.Start}
	if m[2] >= 0 {
		n.title = string(line[pos+m[2] : pos+m[3]])
		n.hasTitle = true
	}
	reader.AdvanceToEOL()
	return n, parser.HasChildren
}

func (detailsParser) Continue(node ast.Node, reader text.Reader, pc parser.Context) parser.State {
	n := node.(*detailsBlock)
	line, _ := reader.PeekLine()
	if detailsClose.Match(line) && !insideRaw(node, pc) && !nestedOpen(node, pc) {
		reader.AdvanceToEOL()
		return parser.Close
	}
	if !n.hasTitle && !n.HasChildren() {
		if m := summaryAlone.FindSubmatch(line); m != nil {
			n.title = string(m[1])
			n.hasTitle = true
			reader.AdvanceToEOL()
		}
	}
	return parser.Continue | parser.HasChildren
}

func (detailsParser) Close(node ast.Node, reader text.Reader, pc parser.Context) {}
func (detailsParser) CanInterruptParagraph() bool                                { return true }
func (detailsParser) CanAcceptIndentedLine() bool                                { return false }

var kindMathBlock = ast.NewNodeKind("QuireMathBlock")

// mathBlock is a "$$" line, the formula lines, and a closing "$$" line.
type mathBlock struct {
	ast.BaseBlock
	formula []string
}

func (n *mathBlock) Kind() ast.NodeKind { return kindMathBlock }
func (n *mathBlock) IsRaw() bool        { return true }

func (n *mathBlock) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

type mathBlockParser struct{}

func (mathBlockParser) Trigger() []byte { return []byte{'$'} }

func (mathBlockParser) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	line, _ := reader.PeekLine()
	pos := pc.BlockOffset()
	if pos < 0 || pos >= len(line) || !mathDelimiter.Match(line[pos:]) {
		return nil, parser.NoChildren
	}
	return &mathBlock{}, parser.NoChildren
}

func (mathBlockParser) Continue(node ast.Node, reader text.Reader, pc parser.Context) parser.State {
	n := node.(*mathBlock)
	line, _ := reader.PeekLine()
	if line == nil {
		return parser.Close
	}
	if mathDelimiter.Match(line) {
		reader.AdvanceToEOL()
		return parser.Close
	}
	n.formula = append(n.formula, strings.TrimSuffix(string(line), "\n"))
	return parser.Continue | parser.NoChildren
}

func (mathBlockParser) Close(node ast.Node, reader text.Reader, pc parser.Context) {}
func (mathBlockParser) CanInterruptParagraph() bool                                { return true }
func (mathBlockParser) CanAcceptIndentedLine() bool                                { return false }

var kindInlineMath = ast.NewNodeKind("QuireInlineMath")

// inlineMathNode is "$$formula$$" inside a paragraph.
type inlineMathNode struct {
	ast.BaseInline
	formula string
}

func (n *inlineMathNode) Kind() ast.NodeKind { return kindInlineMath }

func (n *inlineMathNode) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"formula": n.formula}, nil)
}

type inlineMathParser struct{}

func (inlineMathParser) Trigger() []byte { return []byte{'$'} }

func (inlineMathParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, _ := block.PeekLine()
	if !bytes.HasPrefix(line, []byte("$$")) {
		return nil
	}
	end := bytes.Index(line[2:], []byte("$$"))
	if end <= 0 {
		return nil
	}
	formula := string(line[2 : 2+end])
	if strings.TrimSpace(formula) == "" || strings.ContainsRune(formula, '\n') {
		return nil
	}
	block.Advance(2 + end + 2)
	return &inlineMathNode{formula: formula}
}
