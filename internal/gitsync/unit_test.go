package gitsync

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"testing"

	"quire/internal/apierr"
	"quire/internal/content"
)

func TestParseSummary(t *testing.T) {
	md := strings.Join([]string{
		"# Table of contents",
		"",
		"* [Welcome](README.md)",
		"* [Guide **one**](guide/README.md)",
		"  - [Install \\[beta\\]](<guide/install me.md>)",
		"    1. [Deep](guide/deep.md \"a title\")",
		"\t* [Tabbed](guide/tab.md)",
		"* Plain title",
		"```",
		"* [Not an item](x.md)",
		"```",
		"",
		"## Reference `API`",
		"",
		"* [API](ref/(v2).md)",
		"* [Site](https://example.com/a_(b))",
		"Some prose.",
	}, "\n")
	entries, err := parseSummary(md, 100)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	var walk func(list []*entry, indent string)
	walk = func(list []*entry, indent string) {
		for _, e := range list {
			got = append(got, fmt.Sprintf("%s%s|%s|%v", indent, e.title, e.dest, e.group))
			walk(e.kids, indent+"  ")
		}
	}
	walk(entries, "")
	want := []string{
		"Welcome|README.md|false",
		"Guide one|guide/README.md|false",
		"  Install [beta]|guide/install me.md|false",
		"    Deep|guide/deep.md|false",
		"    Tabbed|guide/tab.md|false", // a tab counts four
		"Plain title||false",
		"Reference API||true",
		"  API|ref/(v2).md|false",
		"  Site|https://example.com/a_(b)|false",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("entries:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// Bounds: items and nesting.
	if _, err := parseSummary(strings.Repeat("* [a](a.md)\n", 11), 10); err == nil || !strings.Contains(err.Error(), "more than 10 pages") {
		t.Errorf("items: %v", err)
	}
	var deep strings.Builder
	for i := 0; i <= content.MaxTreeDepth; i++ {
		fmt.Fprintf(&deep, "%s* [l%d](l%d.md)\n", strings.Repeat("  ", i), i, i)
	}
	if _, err := parseSummary(deep.String(), 1000); err == nil || !strings.Contains(err.Error(), "nest more than 32 levels") {
		t.Errorf("nesting: %v", err)
	}
	// A megabyte of one line, or of brackets, reads in one pass.
	if _, err := parseSummary("* ["+strings.Repeat("[", 1<<20), 10); err != nil {
		t.Errorf("unclosed brackets: %v", err)
	}
}

// pack builds a pack of objects given as (type, declared size, content).
func pack(t *testing.T, objs ...[3]any) []byte {
	t.Helper()
	var b bytes.Buffer
	b.WriteString("PACK")
	binary.Write(&b, binary.BigEndian, uint32(2))
	binary.Write(&b, binary.BigEndian, uint32(len(objs)))
	for _, o := range objs {
		typ, size, data := o[0].(int), o[1].(int), o[2].([]byte)
		c := byte(typ<<4) | byte(size&15)
		size >>= 4
		for size > 0 {
			b.WriteByte(c | 0x80)
			c = byte(size & 0x7f)
			size >>= 7
		}
		b.WriteByte(c)
		if typ == packRefDelta {
			b.Write(make([]byte, 20))
		}
		z := zlib.NewWriter(&b)
		z.Write(data)
		z.Close()
	}
	b.Write(make([]byte, 20)) // checksum (not checked here)
	return b.Bytes()
}

// checkPack refuses what would take too much memory before anything
// keeps it, by what objects declare and by what they inflate to.
func TestCheckPack(t *testing.T) {
	lim := Limits{ObjectBytes: 1000, TotalBytes: 2500}
	ok := pack(t, [3]any{packBlob, 5, []byte("hello")}, [3]any{packBlob, 900, bytes.Repeat([]byte("a"), 900)})
	if err := checkPack(ok, lim); err != nil {
		t.Fatalf("a small pack: %v", err)
	}
	// A 100 MB object compresses to about 100 KB: refused by its header.
	bomb := pack(t, [3]any{packBlob, 100 << 20, bytes.Repeat([]byte{0}, 100<<20)})
	if err := checkPack(bomb, lim); !errors.Is(err, errTooLarge) || !strings.Contains(err.Error(), "an object of 104857600 bytes") {
		t.Errorf("bomb: %v", err)
	}
	// One that declares 10 bytes and inflates to a megabyte: refused while
	// inflating.
	liar := pack(t, [3]any{packBlob, 10, bytes.Repeat([]byte{0}, 1<<20)})
	if err := checkPack(liar, lim); !errors.Is(err, errBadPack) {
		t.Errorf("liar: %v", err)
	}
	// Together beyond the total.
	many := pack(t, [3]any{packBlob, 900, bytes.Repeat([]byte("a"), 900)}, [3]any{packBlob, 900, bytes.Repeat([]byte("b"), 900)},
		[3]any{packBlob, 900, bytes.Repeat([]byte("c"), 900)})
	if err := checkPack(many, lim); !errors.Is(err, errTooLarge) || !strings.Contains(err.Error(), "more than 2500 bytes") {
		t.Errorf("total: %v", err)
	}
	// A delta whose result would be large: its header says so.
	delta := append(binary.AppendUvarint(nil, 5), binary.AppendUvarint(nil, 50<<20)...)
	if err := checkPack(pack(t, [3]any{packRefDelta, len(delta), delta}), lim); !errors.Is(err, errTooLarge) {
		t.Errorf("delta: %v", err)
	}
	for _, bad := range [][]byte{nil, []byte("PACK"), append([]byte("KCAP"), make([]byte, 40)...), ok[:len(ok)-30]} {
		if err := checkPack(bad, lim); err == nil {
			t.Errorf("malformed pack %q accepted", bad)
		}
	}
}

func TestRequestChecks(t *testing.T) {
	root := t.TempDir()
	for _, c := range []struct {
		url, field, msg string
	}{
		{"", "url", "url is required"},
		{"ssh://git@example.com/a.git", "url", `scheme "ssh" is not supported`},
		{"git@example.com:a/b.git", "url", "absolute"},
		{"example.com/a.git", "url", "absolute"},
		{"https:///path", "url", "must name a host"},
		{"file:///etc", "url", "file URLs are not allowed on this server"},
		{"https://example.com/" + strings.Repeat("a", maxURL), "url", "at most 2048 characters long"},
		{"https://example.com/a\nb", "url", "control characters"},
	} {
		_, err := parseRemote(c.url, nil)
		ae, ok := apierr.As(err)
		if !ok || ae.Field != c.field || !strings.Contains(ae.Message, c.msg) {
			t.Errorf("%q: %v, want %s: %s", c.url, err, c.field, c.msg)
		}
	}
	if _, err := parseRemote("file://"+root, []string{root}); err != nil {
		t.Errorf("an allowed directory: %v", err)
	}
	if _, err := parseRemote("file://other-host"+root, []string{root}); err == nil {
		t.Error("a file URL naming a host was accepted")
	}
	for _, ref := range []string{"refs/heads/main", "refs/heads/feature/x-1", "refs/heads/v1.2"} {
		if err := checkRef(ref); err != nil {
			t.Errorf("%q: %v", ref, err)
		}
	}
	for _, ref := range []string{"", "main", "refs/tags/v1", "refs/heads/", "refs/heads/a..b", "refs/heads/a b", "refs/heads/.hidden",
		"refs/heads/a.lock", "refs/heads/a/", "refs/heads/a@{1}", "refs/heads/a\x01", "refs/heads/" + strings.Repeat("a", 300)} {
		if err := checkRef(ref); apierr.CodeOf(err) != apierr.BadRequest {
			t.Errorf("ref %q accepted: %v", ref, err)
		}
	}
	for in, want := range map[string]string{"": "", "./docs/": "docs", "/docs//site": "docs/site", "docs/./a": "docs/a"} {
		if got, err := cleanDir("d", in); err != nil || got != want {
			t.Errorf("cleanDir(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"..", "docs/../..", "a/../b", "a\\b"} {
		if _, err := cleanDir("d", bad); err == nil {
			t.Errorf("cleanDir(%q) accepted", bad)
		}
	}
}

func TestScrub(t *testing.T) {
	r, err := parseRemote("https://ghp_0123456789abcdef:x-oauth-basic@github.com/acme/docs.git", nil)
	if err != nil {
		t.Fatal(err)
	}
	msg := r.scrub(`Get "https://ghp_0123456789abcdef:x-oauth-basic@github.com/acme/docs.git/info/refs": ghp_0123456789abcdef refused`)
	if strings.Contains(msg, "ghp_") || strings.Contains(msg, "x-oauth-basic") {
		t.Errorf("scrubbed: %s", msg)
	}
	if r.display != "https://github.com/acme/docs.git" || repoName(r) != "acme/docs" || provider(r, nil) != "github" {
		t.Errorf("display %s, name %s", r.display, repoName(r))
	}
}

func TestPaths(t *testing.T) {
	for _, c := range [][3]string{
		{"", "README.md", "README.md"},
		{".", "a/b.md", "a/b.md"},
		{"a", "a/b.md", "b.md"},
		{"a/b", "c.md", "../../c.md"},
		{"a/b", "a/c/d.md", "../c/d.md"},
		{"getting-started/installation", ".gitbook/assets/x y.png", "../../.gitbook/assets/x y.png"},
	} {
		if got := relPath(c[0], c[1]); got != c[2] {
			t.Errorf("relPath(%q, %q) = %q, want %q", c[0], c[1], got, c[2])
		}
	}
	for dest, want := range map[string]string{
		"b.md":             "guide/b.md|",
		"../README.md#top": "README.md|top",
		"/ref/api.md":      "ref/api.md|",
		"sub/a%20b.md?x=1": "guide/sub/a b.md|",
		"../../etc":        "!",
	} {
		p, a, ok := resolvePath(dest, "guide")
		got := p + "|" + a
		if !ok {
			got = "!"
		}
		if got != want {
			t.Errorf("resolvePath(%q) = %q, want %q", dest, got, want)
		}
	}
	for dest, abs := range map[string]bool{"https://x": true, "mailto:a@b": true, "//cdn/x": true, "a.md": false, "a:b/c.md": true, "./a:b.md": false} {
		if isAbsolute(dest) != abs {
			t.Errorf("isAbsolute(%q) = %v", dest, !abs)
		}
	}
	if assetName("a/b") != "a_b" || assetName("..") != "_.." || assetName("x.png") != "x.png" {
		t.Error("assetName")
	}
}

// checkPack checks a pack already read (see readPack).
func checkPack(pack []byte, lim Limits) error {
	lim.PackBytes = int64(len(pack))
	_, err := readPack(bytes.NewReader(pack), lim)
	return err
}
