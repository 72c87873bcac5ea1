// Package conditions compiles and evaluates visitor conditions: the
// expressions that decide whether a docs-site section, site space or piece of
// adaptive content is shown to a visitor, such as
//
//	visitor.claims.unsigned.beta && visitor.claims.plan == "pro"
//	visitor.claims.role in ["admin", "editor"]
//
// Conditions are evaluated with github.com/expr-lang/expr. The only top-level
// name is visitor, whose only field is claims: a dynamic map of the visitor's
// claims, with unsigned claims under claims.unsigned. Claim names are not
// known in advance, so any claim compiles; anything else (an unknown
// identifier, a field of visitor other than claims, an expression that can
// never be a boolean) is rejected when the condition is saved.
package conditions

import (
	"container/list"
	"errors"
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/parser"
	"github.com/expr-lang/expr/vm"

	"quire/internal/apierr"
)

// MaxLength is the longest condition accepted, in characters.
const MaxLength = 1024

// cacheSize bounds the number of compiled programs kept in memory.
const cacheSize = 1024

// visitor is the compile- and run-time shape of the visitor. Using a struct
// (not a map) makes `visitor.foo` a compile error while keeping claims
// dynamic.
type visitor struct {
	Claims map[string]any `expr:"claims"`
}

// env is the environment conditions are compiled against and run in: the
// single top-level name visitor. Unknown top-level names are rejected.
type env struct {
	Visitor visitor `expr:"visitor"`
}

// Program is a compiled condition. A nil or empty Program always holds.
// Programs are immutable and safe for concurrent use.
type Program struct {
	source  string
	program *vm.Program // nil means "always"
}

// Source returns the condition the program was compiled from.
func (p *Program) Source() string {
	if p == nil {
		return ""
	}
	return p.source
}

// Always reports whether the program is the empty condition, which holds for
// every visitor.
func (p *Program) Always() bool { return p == nil || p.program == nil }

// Check validates a condition for the input field named field. The empty
// condition is allowed and means "always". The error, if any, is a 400 naming
// field whose message says where the condition is wrong.
func Check(field, cond string) error {
	if _, msg := compile(cond); msg != "" {
		return apierr.Invalid(field, "%s", msg)
	}
	return nil
}

// Compile compiles a condition, using a bounded cache of compiled programs.
// The error, if any, is a 400 naming the field "condition".
func Compile(cond string) (*Program, error) {
	p, msg := compile(cond)
	if msg != "" {
		return nil, apierr.Invalid("condition", "%s", msg)
	}
	return p, nil
}

// MustCompile is Compile for conditions known to be valid; it panics
// otherwise. Meant for tests and constants.
func MustCompile(cond string) *Program {
	p, err := Compile(cond)
	if err != nil {
		panic(err)
	}
	return p
}

// Eval evaluates the program against a visitor's claims. Unsigned claims are
// expected under claims["unsigned"]. Evaluation never panics: a runtime
// error (such as a missing claim used where a boolean is needed), or a result
// that is not a boolean, counts as false. The empty condition is true.
func (p *Program) Eval(claims map[string]any) (ok bool) {
	if p.Always() {
		return true
	}
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	out, err := expr.Run(p.program, env{Visitor: visitor{Claims: withUnsigned(claims)}})
	if err != nil {
		return false
	}
	b, isBool := out.(bool)
	return isBool && b
}

// Eval compiles cond and evaluates it against claims; an invalid condition is
// false.
func Eval(cond string, claims map[string]any) bool {
	p, err := Compile(cond)
	if err != nil {
		return false
	}
	return p.Eval(claims)
}

var emptyUnsigned = map[string]any{}

// withUnsigned makes sure claims.unsigned is a map, so that a visitor without
// unsigned claims sees unsigned.<name> as missing rather than as an error on
// the whole path. The caller's map is never modified.
func withUnsigned(claims map[string]any) map[string]any {
	if _, ok := claims["unsigned"].(map[string]any); ok {
		return claims
	}
	if _, present := claims["unsigned"]; present {
		// Some other value: leave it, lookups through it fail (false).
		return claims
	}
	out := make(map[string]any, len(claims)+1)
	for k, v := range claims {
		out[k] = v
	}
	out["unsigned"] = emptyUnsigned
	return out
}

var always = &Program{}

// compile returns the program or a message for the caller.
func compile(cond string) (*Program, string) {
	if strings.TrimSpace(cond) == "" {
		return always, ""
	}
	if n := utf8.RuneCountInString(cond); n > MaxLength {
		return nil, fmt.Sprintf("condition: must be at most %d characters (got %d)", MaxLength, n)
	}
	if p, ok := cache.get(cond); ok {
		return p, ""
	}
	p, msg := build(cond)
	if msg != "" {
		return nil, msg
	}
	cache.put(cond, p)
	return p, ""
}

func build(cond string) (p *Program, msg string) {
	defer func() {
		// expr should never panic on bad input; be defensive anyway.
		if r := recover(); r != nil {
			p, msg = nil, "condition: invalid expression"
		}
	}()
	if _, err := parser.Parse(cond); err != nil {
		return nil, describe(cond, "syntax error", err)
	}
	prog, err := expr.Compile(cond, expr.Env(env{}), expr.AsBool())
	if err != nil {
		return nil, describe(cond, "invalid expression", err)
	}
	return &Program{source: cond, program: prog}, ""
}

// describe renders a compile error as "condition: <what> at line L, column C:
// <message>", lines and columns counted from 1 in characters.
func describe(cond, what string, err error) string {
	var fe *file.Error
	if errors.As(err, &fe) {
		line, col := position(cond, fe.From)
		return fmt.Sprintf("condition: %s at line %d, column %d: %s", what, line, col, clean(fe.Message))
	}
	msg := clean(err.Error())
	if strings.HasPrefix(msg, "expected bool") {
		return fmt.Sprintf("condition: %s: the condition must be a boolean (%s)", what, msg)
	}
	return fmt.Sprintf("condition: %s: %s", what, msg)
}

// position converts a character offset into a 1-based line and column.
func position(src string, offset int) (line, col int) {
	line, col = 1, 1
	i := 0
	for _, r := range src {
		if i >= offset {
			break
		}
		if r == '\n' {
			line++
			col = 1
		} else {
			col++
		}
		i++
	}
	return line, col
}

// clean removes Go type names of the environment from expr's messages.
var cleaner = strings.NewReplacer(
	"conditions.visitor", "visitor",
	"conditions.env", "environment",
	"interface {}", "any",
)

func clean(msg string) string {
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	return cleaner.Replace(msg)
}

// lru is a small concurrency-safe least-recently-used cache of programs.
type lru struct {
	mu    sync.Mutex
	max   int
	order *list.List // front is most recent; values are *entry
	items map[string]*list.Element
}

type entry struct {
	key string
	p   *Program
}

var cache = newLRU(cacheSize)

func newLRU(max int) *lru {
	return &lru{max: max, order: list.New(), items: make(map[string]*list.Element, max)}
}

func (c *lru) get(key string) (*Program, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.items[key]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(el)
	return el.Value.(*entry).p, true
}

func (c *lru) put(key string, p *Program) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.items[key]; ok {
		el.Value.(*entry).p = p
		c.order.MoveToFront(el)
		return
	}
	c.items[key] = c.order.PushFront(&entry{key: key, p: p})
	for c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.items, last.Value.(*entry).key)
	}
}
