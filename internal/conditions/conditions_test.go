package conditions

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"quire/internal/apierr"
)

func claims() map[string]any {
	return map[string]any{
		"plan":  "pro",
		"role":  "editor",
		"roles": []any{"admin", "billing"},
		"seats": float64(12), // JSON numbers decode as float64
		"age":   30,
		"company": map[string]any{
			"name": "Acme",
			"tier": "gold",
		},
		"unsigned": map[string]any{
			"beta":  true,
			"alpha": false,
		},
	}
}

func TestEval(t *testing.T) {
	cases := []struct {
		cond string
		want bool
	}{
		{``, true},
		{`   `, true},
		{`visitor.claims.plan == "pro"`, true},
		{`visitor.claims.plan == "free"`, false},
		{`visitor.claims.plan != "free"`, true},
		{`visitor.claims.unsigned.beta`, true},
		{`visitor.claims.unsigned.alpha`, false},
		{`visitor.claims.unsigned.beta && visitor.claims.plan == "pro"`, true},
		{`visitor.claims.unsigned.alpha && visitor.claims.plan == "pro"`, false},
		{`visitor.claims.unsigned.alpha || visitor.claims.plan == "pro"`, true},
		{`visitor.claims.unsigned.alpha or visitor.claims.plan == "free"`, false},
		{`!visitor.claims.unsigned.alpha`, true},
		{`not visitor.claims.unsigned.beta`, false},
		{`visitor.claims.role in ["admin", "editor"]`, true},
		{`visitor.claims.role in ["admin", "owner"]`, false},
		{`visitor.claims.role not in ["admin", "owner"]`, true},
		{`"admin" in visitor.claims.roles`, true},
		{`"owner" in visitor.claims.roles`, false},
		{`visitor.claims.seats > 10`, true},
		{`visitor.claims.seats >= 12 && visitor.claims.seats <= 12`, true},
		{`visitor.claims.seats < 5`, false},
		{`visitor.claims.age > 18`, true},
		{`visitor.claims.age == 30.0`, true},
		{`visitor.claims.company.tier == "gold"`, true},
		{`visitor.claims["company"]["name"] == "Acme"`, true},
		{`len(visitor.claims.roles) == 2`, true},
		{"visitor.claims.plan == \"pro\" &&\n  visitor.claims.unsigned.beta", true},
		// Missing claims are false, never an error.
		{`visitor.claims.missing`, false},
		{`visitor.claims.missing == "pro"`, false},
		{`visitor.claims.missing.deeper`, false},
		{`visitor.claims.unsigned.missing`, false},
		{`visitor.claims.missing > 3`, false},
		{`"x" in visitor.claims.missing`, false},
		// Non-boolean results are false.
		{`visitor.claims.plan`, false},
		{`visitor.claims.seats`, false},
		{`visitor.claims.unsigned`, false},
	}
	for _, c := range cases {
		p, err := Compile(c.cond)
		if err != nil {
			t.Errorf("Compile(%q): %v", c.cond, err)
			continue
		}
		if err := Check("condition", c.cond); err != nil {
			t.Errorf("Check(%q): %v", c.cond, err)
		}
		if got := p.Eval(claims()); got != c.want {
			t.Errorf("Eval(%q) = %v, want %v", c.cond, got, c.want)
		}
		if got := Eval(c.cond, claims()); got != c.want {
			t.Errorf("package Eval(%q) = %v, want %v", c.cond, got, c.want)
		}
	}
}

func TestEvalWithoutClaims(t *testing.T) {
	for _, cond := range []string{
		`visitor.claims.unsigned.beta`,
		`visitor.claims.plan == "pro"`,
		`visitor.claims.seats > 0`,
		`"admin" in visitor.claims.roles`,
		`!visitor.claims.beta`,
	} {
		p := MustCompile(cond)
		if p.Eval(nil) {
			t.Errorf("Eval(%q, nil) = true", cond)
		}
		if p.Eval(map[string]any{}) {
			t.Errorf("Eval(%q, {}) = true", cond)
		}
		// unsigned of the wrong type: false, not a panic.
		if p.Eval(map[string]any{"unsigned": "nope"}) {
			t.Errorf("Eval(%q, unsigned string) = true", cond)
		}
	}
	// The nil program and the empty condition always hold.
	var nilProg *Program
	if !nilProg.Eval(nil) || !MustCompile("").Eval(nil) {
		t.Error("empty condition should always hold")
	}
	if !MustCompile(`visitor.claims.plan == nil`).Eval(nil) {
		t.Error("missing claim should equal nil")
	}
}

func TestEvalDoesNotModifyClaims(t *testing.T) {
	c := map[string]any{"plan": "pro"}
	MustCompile(`visitor.claims.unsigned.beta`).Eval(c)
	if _, ok := c["unsigned"]; ok || len(c) != 1 {
		t.Errorf("claims modified: %v", c)
	}
}

func TestEvalRuntimeErrorsAreFalse(t *testing.T) {
	for _, cond := range []string{
		`len(1..1000000000) > 0`,                     // memory budget
		`len(repeat("a", 1000000)) > 0`,              // memory budget
		`visitor.claims.seats / 0 > 1 && 1 / 0 == 1`, // division
		`int(visitor.claims.plan) > 0`,               // conversion
		`visitor.claims.plan matches visitor.claims.unsigned.beta`,
		`visitor.claims.plan > 3`, // string vs int
	} {
		p, err := Compile(cond)
		if err != nil {
			t.Errorf("Compile(%q): %v", cond, err)
			continue
		}
		if p.Eval(claims()) {
			t.Errorf("Eval(%q) = true", cond)
		}
	}
}

func TestCheckErrors(t *testing.T) {
	cases := []struct {
		cond string
		want string // substring of the message
	}{
		{`visitor.claims.plan ==`, `condition: syntax error at line 1, column 22: unexpected token EOF`},
		{`visitor.claims.plan == "pro" &&`, `condition: syntax error at line 1, column 31: unexpected token EOF`},
		{`visitor.claims.plan === "pro"`, `condition: syntax error at line 1, column 23: unexpected token Operator("=")`},
		{"visitor.claims.plan == \"pro\" &&\n  visitor.claims.(", `condition: syntax error at line 2, column 18:`},
		{`visitor.claims.plan == "pro`, `condition: syntax error at line 1, column`},
		{`(visitor.claims.beta`, `condition: syntax error at line 1, column`},
		{`foo`, `condition: invalid expression at line 1, column 1: unknown name foo`},
		{`visitor.claims.beta && user.admin`, `condition: invalid expression at line 1, column 24: unknown name user`},
		{`visitors.claims.beta`, `unknown name visitors`},
		{`visitor.claim.beta`, `condition: invalid expression at line 1, column 9: type visitor has no field claim`},
		{`1 + 2`, `the condition must be a boolean (expected bool, but got int)`},
		{`"pro"`, `expected bool, but got string`},
		{`visitor`, `expected bool`},
		{`visitor.claims.plan matches "("`, `condition: invalid expression at line 1, column 21: error parsing regexp`},
	}
	for _, c := range cases {
		err := Check("sections[0].condition", c.cond)
		if err == nil {
			t.Errorf("Check(%q) = nil, want error", c.cond)
			continue
		}
		e, ok := apierr.As(err)
		if !ok || e.Code != apierr.BadRequest || e.Field != "sections[0].condition" {
			t.Errorf("Check(%q) = %#v, want a 400 naming the field", c.cond, err)
			continue
		}
		if !strings.Contains(e.Message, c.want) {
			t.Errorf("Check(%q) message = %q, want it to contain %q", c.cond, e.Message, c.want)
		}
		if _, err := Compile(c.cond); err == nil {
			t.Errorf("Compile(%q) = nil error", c.cond)
		}
	}
}

func TestCheckLength(t *testing.T) {
	base := `visitor.claims.plan == "`
	pad := func(n int) string { return base + strings.Repeat("x", n-len(base)-1) + `"` }
	if err := Check("condition", pad(MaxLength)); err != nil {
		t.Errorf("1024 characters rejected: %v", err)
	}
	err := Check("condition", pad(MaxLength+1))
	e, ok := apierr.As(err)
	if !ok || e.Code != apierr.BadRequest || e.Field != "condition" || !strings.Contains(e.Message, "at most 1024 characters") {
		t.Errorf("1025 characters: got %v", err)
	}
	// Length counts characters, not bytes.
	multi := base + strings.Repeat("é", MaxLength-len(base)-1) + `"`
	if err := Check("condition", multi); err != nil {
		t.Errorf("1024 multi-byte characters rejected: %v", err)
	}
}

func TestCache(t *testing.T) {
	c := newLRU(2)
	a, b, d := &Program{source: "a"}, &Program{source: "b"}, &Program{source: "d"}
	c.put("a", a)
	c.put("b", b)
	if p, _ := c.get("a"); p != a { // a is now most recent
		t.Fatal("a missing")
	}
	c.put("d", d) // evicts b
	if _, ok := c.get("b"); ok {
		t.Error("b should have been evicted")
	}
	if _, ok := c.get("a"); !ok {
		t.Error("a should still be cached")
	}
	if c.len() != 2 {
		t.Errorf("len = %d", c.len())
	}

	// The package cache returns the same program and stays bounded.
	p1 := MustCompile(`visitor.claims.cache_test == 1`)
	p2 := MustCompile(`visitor.claims.cache_test == 1`)
	if p1 != p2 {
		t.Error("compiled program not cached")
	}
	for i := 0; i < cacheSize+10; i++ {
		MustCompile(fmt.Sprintf(`visitor.claims.n == %d`, i))
	}
	if n := cache.len(); n > cacheSize {
		t.Errorf("cache grew to %d", n)
	}
}

func TestConcurrentUse(t *testing.T) {
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				cond := fmt.Sprintf(`visitor.claims.seats > %d`, i%20)
				if got, want := Eval(cond, claims()), 12 > i%20; got != want {
					t.Errorf("Eval(%q) = %v", cond, got)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func FuzzCheck(f *testing.F) {
	for _, s := range []string{
		``,
		`visitor.claims.unsigned.beta && visitor.claims.plan == "pro"`,
		`visitor.claims.role in ["admin", "editor"]`,
		`!visitor.claims.beta || visitor.claims.seats >= 3.5`,
		`visitor.claims.plan ==`,
		`1 + 2`,
		`foo.bar`,
		"visitor.claims.a\n&& (",
		`len(1..1000000) > 0`,
		`visitor.claims.x matches "[a-"`,
		`let x = visitor.claims.plan; x == "pro"`,
		`visitor?.claims?.plan ?? "free" == "free"`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cond string) {
		err := Check("condition", cond)
		if err != nil {
			if e, ok := apierr.As(err); !ok || e.Code != apierr.BadRequest {
				t.Fatalf("Check(%q) = %v, want a 400", cond, err)
			}
			return
		}
		p, err := Compile(cond)
		if err != nil {
			t.Fatalf("Check accepted %q but Compile failed: %v", cond, err)
		}
		p.Eval(claims())
		p.Eval(nil)
	})
}

// FuzzEval evaluates conditions that compile against claims of any shape
// (JSON objects, as visitor tokens carry them): never a panic, and the same
// answer every time.
func FuzzEval(f *testing.F) {
	for _, c := range []struct{ cond, claims string }{
		{`visitor.claims.plan == "pro"`, `{"plan":"pro"}`},
		{`visitor.claims.unsigned.beta`, `{"unsigned":{"beta":true}}`},
		{`visitor.claims.unsigned.beta`, `{"unsigned":"beta"}`},
		{`visitor.claims.seats >= 3.5 && visitor.claims.seats < 1e308`, `{"seats":1e308}`},
		{`"admin" in visitor.claims.roles`, `{"roles":["admin",null,{"a":[]}]}`},
		{`visitor.claims.company.tier matches "^g"`, `{"company":{"tier":5}}`},
		{`len(visitor.claims.name) > 2`, `{"name":null}`},
		{`visitor.claims.a.b.c.d == visitor.claims.e[0]`, `{"a":{"b":[]},"e":{}}`},
		{`visitor.claims.n / visitor.claims.z > 1`, `{"n":1,"z":0}`},
		{`visitor.claims.x`, `[]`},
	} {
		f.Add(c.cond, []byte(c.claims))
	}
	f.Fuzz(func(t *testing.T, cond string, raw []byte) {
		p, err := Compile(cond)
		if err != nil {
			if e, ok := apierr.As(err); !ok || e.Code != apierr.BadRequest {
				t.Fatalf("Compile(%q) = %v, want a 400", cond, err)
			}
			return
		}
		var claims map[string]any
		if json.Unmarshal(raw, &claims) != nil {
			claims = nil
		}
		if first, again := p.Eval(claims), p.Eval(claims); first != again {
			t.Fatalf("Eval(%q) over %s: %v, then %v", cond, raw, first, again)
		}
	})
}

// len is how many programs the cache holds.
func (c *lru) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}
