package openapispec

import (
	"context"
	"fmt"
	"net/url"
	"path"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"quire/internal/types"
)

// specFile is one file of a specification being read.
type specFile struct {
	// key is the file's path in the version's filesystem (see keys).
	key string
	// asked is the URL references name the file by; final is where it
	// was read from after redirects, what its own relative references
	// resolve against. Both nil for a root given as text.
	asked, final *url.URL
	text         []byte
	root         *yaml.Node // the document node
	// index holds the keys of the mappings pointers have looked into.
	index map[*yaml.Node]map[string]*yaml.Node
}

func (f *specFile) name() string {
	if f.key != "" {
		return f.key
	}
	if f.asked != nil {
		return f.asked.Redacted()
	}
	return "the root file"
}

// reference is a $ref found in a file.
type reference struct {
	from   *specFile
	node   *yaml.Node // the $ref's value, for its line and column
	target *specFile  // nil: the file it is in
	frag   string
}

// collection is a specification's files, root first.
type collection struct {
	files  []*specFile
	byURL  map[string]*specFile
	refs   []reference
	total  int
	issues []issue
	// more counts the issues past maxErrors, which are not kept.
	more int
}

// issue is a reason a specification does not parse or validate: where
// (a file, and a line and column when known) and what.
type issue struct {
	file      *specFile
	line, col int
	code, msg string
}

// problem records an issue; past maxErrors it only counts.
func (c *collection) problem(f *specFile, line, col int, code, format string, args ...any) {
	if len(c.issues) >= maxErrors {
		c.more++
		return
	}
	c.issues = append(c.issues, issue{file: f, line: line, col: col, code: code, msg: fmt.Sprintf(format, args...)})
}

// errors lists the issues as the specification records them, the file
// named by its path in the version.
func (c *collection) errors() []types.SpecError {
	out := make([]types.SpecError, 0, len(c.issues)+1)
	for _, is := range c.issues {
		where := is.file.name()
		if is.line > 0 {
			where = fmt.Sprintf("%s:%d:%d", where, is.line, is.col)
		}
		out = append(out, types.SpecError{Code: is.code, Message: where + ": " + is.msg})
	}
	if c.more > 0 {
		out = append(out, types.SpecError{Code: ErrMoreOmitted, Message: fmt.Sprintf("and %d more problems", c.more)})
	}
	return out
}

// fetchFunc reads a file of the specification.
type fetchFunc func(ctx context.Context, u *url.URL) ([]byte, *url.URL, error)

// collect reads a specification: its root (fetched from rootURL, or the
// text given), then every file its $ref values reach, breadth first, up
// to MaxFiles files and MaxTotalBytes in all. Files that do not parse and
// references that cannot be followed are recorded in errs (a parse
// error); a file that cannot be fetched stops it with a *fetchError.
// report sees each file as it is about to be fetched.
func collect(ctx context.Context, fetch fetchFunc, rootURL *url.URL, text []byte, report func(done int, what string) error) (*collection, error) {
	c := &collection{byURL: map[string]*specFile{}}
	root := &specFile{asked: rootURL, text: text}
	if rootURL != nil {
		if err := report(0, "fetching "+rootURL.Redacted()); err != nil {
			return nil, err
		}
		body, final, err := fetch(ctx, rootURL)
		if err != nil {
			return nil, err
		}
		root.text, root.final = body, final
		c.byURL[rootURL.String()] = root
		c.byURL[final.String()] = root
	}
	c.total = len(root.text)
	c.files = append(c.files, root)
	for i := 0; i < len(c.files); i++ {
		f := c.files[i]
		if f.text == nil {
			// Not the root: fetched when its turn comes, so that files
			// are read breadth first.
			if err := report(i, "fetching "+f.asked.Redacted()); err != nil {
				return nil, err
			}
			body, final, err := fetch(ctx, f.asked)
			if err != nil {
				return nil, err
			}
			f.text, f.final = body, final
			c.total += len(body)
			if c.total > MaxTotalBytes {
				return nil, &fetchError{code: CodeFetchError, msg: fmt.Sprintf("the specification and the files it references are larger than %d MiB in all, the most Quire reads", MaxTotalBytes>>20)}
			}
		}
		node, line, col, msg := parseFile(f.text)
		if node == nil {
			c.problem(f, line, col, ErrSyntax, "%s", msg)
			continue
		}
		f.root = node
		if err := c.references(f); err != nil {
			return nil, err
		}
	}
	c.keys()
	c.checkPointers()
	return c, nil
}

// references finds the $ref values of a file and queues the files they
// name.
func (c *collection) references(f *specFile) error {
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		switch n.Kind {
		case yaml.DocumentNode, yaml.SequenceNode:
			for _, k := range n.Content {
				walk(k)
			}
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				if k.Value == "$ref" && v.Kind == yaml.ScalarNode {
					c.reference(f, v)
					continue
				}
				walk(v)
			}
			// Aliases are not followed: what they name is walked where it
			// is defined, and following them could repeat a subtree
			// exponentially often.
		}
	}
	walk(f.root)
	if len(c.files) > MaxFiles {
		return &fetchError{code: CodeFetchError, msg: fmt.Sprintf("the specification and the files its references reach are more than %d files, the most Quire reads", MaxFiles)}
	}
	return nil
}

// reference records one $ref of f and queues the file it names.
func (c *collection) reference(f *specFile, v *yaml.Node) {
	bad := func(format string, args ...any) { c.problem(f, v.Line, v.Column, ErrReference, format, args...) }
	doc, frag, _ := strings.Cut(v.Value, "#")
	if doc == "" {
		c.refs = append(c.refs, reference{from: f, node: v, frag: frag})
		return
	}
	ref, err := url.Parse(doc)
	if err != nil {
		bad("$ref %q is not a valid reference: %s", v.Value, rootCause(err))
		return
	}
	var target *url.URL
	switch {
	case ref.IsAbs():
		target = ref
	case f.final == nil:
		bad("$ref %q is relative, but a specification given as text has no location to resolve it against: use an absolute URL, or give the specification by its URL", v.Value)
		return
	default:
		target = f.final.ResolveReference(ref)
	}
	if target.Scheme != "http" && target.Scheme != "https" {
		bad("$ref %q names a %s: location; Quire follows only http and https references", v.Value, target.Scheme)
		return
	}
	if target.User != nil {
		bad("$ref %q carries credentials, which Quire does not send", v.Value)
		return
	}
	target.Fragment, target.RawFragment = "", ""
	t := c.byURL[target.String()]
	if t == nil {
		t = &specFile{asked: target}
		c.byURL[target.String()] = t
		c.files = append(c.files, t)
	}
	c.refs = append(c.refs, reference{from: f, node: v, target: t, frag: frag})
}

// keys names each file in the version's filesystem: the files of the root's
// origin by their path below the deepest directory holding all of them
// (so that relative references between them still work where Quire
// serves them), the others by their URL. A root given as text is
// openapi.yaml or openapi.json.
func (c *collection) keys() {
	root := c.files[0]
	if root.final == nil {
		root.key = "openapi.yaml"
		if looksJSON(root.text) {
			root.key = "openapi.json"
		}
		for _, f := range c.files[1:] {
			f.key = f.asked.String()
		}
		return
	}
	local := func(f *specFile) (string, bool) {
		u := f.asked
		if f == root {
			u = f.final
		}
		if u.Scheme != root.final.Scheme || u.Host != root.final.Host || (u.RawQuery != "" && f != root) {
			return "", false
		}
		p := u.Path
		if p == "" || strings.HasSuffix(p, "/") {
			name := "openapi.yaml"
			if looksJSON(f.text) {
				name = "openapi.json"
			}
			p += name
		}
		return path.Clean("/" + p), true
	}
	var dir []string
	first := true
	paths := map[*specFile]string{}
	for _, f := range c.files {
		p, ok := local(f)
		if !ok {
			continue
		}
		paths[f] = p
		var segs []string
		if d := path.Dir(p); d != "/" {
			segs = strings.Split(strings.TrimPrefix(d, "/"), "/")
		}
		if first {
			dir, first = segs, false
			continue
		}
		n := 0
		for n < len(dir) && n < len(segs) && dir[n] == segs[n] {
			n++
		}
		dir = dir[:n]
	}
	prefix := "/"
	if len(dir) > 0 {
		prefix = "/" + strings.Join(dir, "/") + "/"
	}
	used := map[string]bool{}
	for _, f := range c.files {
		if p, ok := paths[f]; ok {
			f.key = strings.TrimPrefix(p, prefix)
		} else {
			f.key = f.asked.String()
		}
		if f.key == "" || used[f.key] {
			f.key = f.asked.String()
			if f == root {
				f.key = root.final.String()
			}
		}
		used[f.key] = true
	}
}

// checkPointers records the references whose JSON pointer names nothing
// in the file it points into.
func (c *collection) checkPointers() {
	for _, r := range c.refs {
		t := r.target
		if t == nil {
			t = r.from
		}
		if t.root == nil || !strings.HasPrefix(r.frag, "/") {
			// A file that did not parse is reported already; a fragment
			// that is not a pointer names an anchor, checked by the
			// document's reader.
			continue
		}
		if missing := t.resolve(r.frag); missing != "" {
			in := ""
			if r.target != nil {
				in = " in " + t.key
			}
			c.problem(r.from, r.node.Line, r.node.Column, ErrReference, "$ref %q points at nothing: %s%s", r.node.Value, missing, in)
		}
	}
}

// resolve follows a JSON pointer (RFC 6901, in a URI fragment) into the
// file; it returns what is missing, or "" when the pointer names a node.
// Looking into a mapping indexes its keys once, so a file with many
// references costs time linear in its size.
func (f *specFile) resolve(frag string) string {
	if dec, err := url.PathUnescape(frag); err == nil {
		frag = dec
	}
	n := f.root
	if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		n = n.Content[0]
	}
	at := ""
	for _, tok := range strings.Split(frag, "/")[1:] {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		for n.Kind == yaml.AliasNode && n.Alias != nil {
			n = n.Alias
		}
		var next *yaml.Node
		switch n.Kind {
		case yaml.MappingNode:
			next = f.child(n, tok)
		case yaml.SequenceNode:
			if i, err := strconv.Atoi(tok); err == nil && i >= 0 && i < len(n.Content) && strconv.Itoa(i) == tok {
				next = n.Content[i]
			}
		}
		if next == nil {
			if at == "" {
				return fmt.Sprintf("the document has no %q", tok)
			}
			return fmt.Sprintf("%s has no %q", at, tok)
		}
		at += "/" + tok
		n = next
	}
	return ""
}

func (f *specFile) child(m *yaml.Node, key string) *yaml.Node {
	if f.index == nil {
		f.index = map[*yaml.Node]map[string]*yaml.Node{}
	}
	idx, ok := f.index[m]
	if !ok {
		idx = make(map[string]*yaml.Node, len(m.Content)/2)
		for i := 0; i+1 < len(m.Content); i += 2 {
			if _, dup := idx[m.Content[i].Value]; !dup {
				idx[m.Content[i].Value] = m.Content[i+1]
			}
		}
		f.index[m] = idx
	}
	return idx[key]
}

// files returns the collected files by key, and the root's key.
func (c *collection) filesystem() (map[string]string, string) {
	out := make(map[string]string, len(c.files))
	for _, f := range c.files {
		out[f.key] = string(f.text)
	}
	return out, c.files[0].key
}
