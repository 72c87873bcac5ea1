package main

import (
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// topUsageBlock returns the part of the top-level help that describes the
// command c: from its synopsis to the next command.
func topUsageBlock(t *testing.T, top string, c *command) string {
	t.Helper()
	start := strings.Index(top, "\n  quire "+c.name+" ")
	if start < 0 {
		start = strings.Index(top, "\n  quire "+c.name+"\n")
	}
	if start < 0 {
		t.Fatalf("top-level help does not list %q:\n%s", c.name, top)
	}
	block := top[start+1:]
	if end := strings.Index(block, "\n  quire "); end >= 0 {
		block = block[:end]
	}
	return block
}

// Every flag of every command has help, shows in the command's --help and
// in the command's synopsis of the top-level help: adding a flag without
// them fails here.
func TestHelpListsEveryFlag(t *testing.T) {
	code, stdout, top := quire(t, "--help")
	if code != 0 || stdout != "" {
		t.Fatalf("quire --help: exit %d, stdout %q", code, stdout)
	}
	if c2, _, help := quire(t, "help"); c2 != 0 || help != top {
		t.Errorf("quire help: exit %d, and not the same as quire --help", c2)
	}
	for i := range commands {
		c := &commands[i]
		t.Run(c.name, func(t *testing.T) {
			fs := c.flagSet()
			code, stdout, help := quire(t, append(strings.Fields(c.name), "--help")...)
			if code != 0 || stdout != "" {
				t.Fatalf("quire %s --help: exit %d, stdout %q", c.name, code, stdout)
			}
			if !strings.Contains(help, "quire "+c.name) {
				t.Errorf("quire %s --help does not name the command:\n%s", c.name, help)
			}
			block := topUsageBlock(t, top, c)
			n := 0
			fs.VisitAll(func(f *flag.Flag) {
				n++
				if strings.TrimSpace(f.Usage) == "" {
					t.Errorf("flag --%s has no help text", f.Name)
				}
				if !regexp.MustCompile(`(?m)^  -` + regexp.QuoteMeta(f.Name) + `\b`).MatchString(help) {
					t.Errorf("quire %s --help does not list --%s:\n%s", c.name, f.Name, help)
				}
				if !regexp.MustCompile(`--` + regexp.QuoteMeta(f.Name) + `\b`).MatchString(block) {
					t.Errorf("top-level help of %s does not list --%s:\n%s", c.name, f.Name, block)
				}
				if m := envOfFlag.FindStringSubmatch(f.Usage); m != nil && !strings.Contains(top, "\n  "+m[1]+"\n") {
					t.Errorf("--%s names %s, which the top-level help does not list", f.Name, m[1])
				}
			})
			if strings.HasPrefix(c.name, "admin ") || c.name == "migrate" || c.name == "serve" {
				if fs.Lookup("database-url") == nil || fs.Lookup("db-max-conns") == nil {
					t.Errorf("%s has no --database-url or --db-max-conns", c.name)
				}
			}
		})
	}
	// Groups answer --help with their commands.
	code, _, group := quire(t, "admin", "--help")
	if code != 0 || !strings.Contains(group, "quire admin user verify") || !strings.Contains(group, "quire admin jobs list") || strings.Contains(group, "quire serve") {
		t.Errorf("quire admin --help: exit %d\n%s", code, group)
	}
}

// Every QUIRE_* variable the command's source reads is in the top-level
// help.
func TestHelpListsEveryEnvironmentVariable(t *testing.T) {
	_, _, top := quire(t, "--help")
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	name := regexp.MustCompile(`QUIRE_[A-Z0-9_]+`)
	seen := map[string]bool{}
	fset := token.NewFileSet()
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				for _, v := range name.FindAllString(lit.Value, -1) {
					seen[v] = true
					if !strings.Contains(top, "\n  "+v+"\n") {
						t.Errorf("%s (read in %s) is not in the top-level help", v, file)
					}
				}
			}
			return true
		})
	}
	// The scan found the variables: it would pass vacuously otherwise.
	for _, v := range []string{envAddr, envDatabaseURL, envDBMaxConns, envMetricsAddr, envRateLimitAnon, envPprofAddr} {
		if !seen[v] {
			t.Errorf("the source scan did not find %s", v)
		}
	}
	if _, err := os.Stat("pprof.go"); err != nil {
		t.Fatalf("scan ran outside cmd/quire: %v", err)
	}
}
