package document

import (
	"bytes"
	"strconv"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// The Markdown parser is linear in its input except in two places, both of
// which the guards below bound while it parses:
//
//   - Container blocks (block quotes, lists and list items, liquid tags,
//     <details>): every line is offered to every open container, so n
//     nested containers cost n steps per line, and n² for one line that
//     opens them all. No container opens deeper than MaxDepth; the parse
//     goes on with the line as text, and the input is refused.
//   - Emphasis, strikethrough, code and link delimiters: their matching
//     within one paragraph takes time quadratic in their number (100,000
//     '[' take seconds). After MaxInlineDelimiters of them in one
//     paragraph, heading or table cell, the rest of it is skipped and the
//     input is refused.

var guardKey = parser.NewContextKey()

// mdGuard is the state of the guards for one parse.
type mdGuard struct {
	src []byte
	// err is the first limit the input exceeds, with the offset where the
	// parser met it.
	err    *limitError
	offset int

	// block is the paragraph (or heading, or table cell) whose delimiters
	// count counts.
	block ast.Node
	count int
}

func newGuard(src []byte) (*mdGuard, parser.Context) {
	g := &mdGuard{src: src}
	pc := parser.NewContext()
	pc.Set(guardKey, g)
	return g, pc
}

func guardOf(pc parser.Context) *mdGuard {
	g, _ := pc.Get(guardKey).(*mdGuard)
	return g
}

func (g *mdGuard) exceed(err *limitError, offset int) {
	if g.err == nil {
		g.err, g.offset = err, offset
	}
}

// apiError reports the limit on the Markdown input, with the line where
// the parser met it (offset -1 for limits on the whole input).
func (g *mdGuard) apiError() error {
	if g.offset >= 0 {
		g.err.msg += ", at line " + strconv.Itoa(1+bytes.Count(g.src[:min(g.offset, len(g.src))], []byte{'\n'}))
	}
	return g.err.apiError(markdownField)
}

// markdownField names Markdown input in errors.
const markdownField = "markdown"

func isContainer(n ast.Node) bool {
	switch n.(type) {
	case *ast.Blockquote, *ast.List, *ast.ListItem, *liquidBlock, *detailsBlock:
		return true
	}
	return false
}

// mayOpenContainer reports whether a container block may open under parent;
// when it may not, the guard records the limit.
func mayOpenContainer(parent ast.Node, reader text.Reader, pc parser.Context) bool {
	depth := 1
	for p := parent; p != nil; p = p.Parent() {
		if isContainer(p) {
			depth++
		}
	}
	if depth <= MaxDepth {
		return true
	}
	if g := guardOf(pc); g != nil {
		_, seg := reader.Position()
		g.exceed(tooDeep(nil), seg.Start)
	}
	return false
}

// containerGuard wraps one of goldmark's container block parsers.
type containerGuard struct {
	parser.BlockParser
}

func (c containerGuard) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	if !mayOpenContainer(parent, reader, pc) {
		return nil, parser.NoChildren
	}
	return c.BlockParser.Open(parent, reader, pc)
}

// blockParsers are goldmark's default block parsers with its containers
// guarded.
func blockParsers() []util.PrioritizedValue {
	out := parser.DefaultBlockParsers()
	for i, p := range out {
		switch p.Value {
		case parser.NewBlockquoteParser(), parser.NewListParser(), parser.NewListItemParser():
			out[i].Value = containerGuard{p.Value.(parser.BlockParser)}
		}
	}
	return out
}

// delimiterChars are the characters whose inline parsers match within a
// paragraph in time quadratic in their number.
var delimiterChars = []byte{'*', '_', '~', '`', '[', ']', '!'}

// delimiterGuard counts delimiters per paragraph. It runs before the
// parsers that match them and declines every character while the count is
// within the limit; past it, it takes the rest of the paragraph as text.
type delimiterGuard struct{}

func (delimiterGuard) Trigger() []byte { return delimiterChars }

func (delimiterGuard) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	g := guardOf(pc)
	if g == nil {
		return nil
	}
	line, seg := block.PeekLine()
	if line[0] == '!' && (len(line) < 2 || line[1] != '[') {
		// Only "![" opens an image.
		return nil
	}
	if parent != g.block {
		g.block, g.count = parent, 0
	}
	g.count++
	if g.count <= MaxInlineDelimiters && g.err == nil {
		return nil
	}
	g.exceed(&limitError{msg: "more than " + grouped(MaxInlineDelimiters) +
		" emphasis, code and link delimiters in one paragraph (the limit)"}, seg.Start)
	for {
		if l, _ := block.PeekLine(); l == nil {
			break
		}
		block.AdvanceLine()
	}
	return ast.NewText()
}
