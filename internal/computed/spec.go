package computed

import (
	"encoding/json"
	"fmt"
	"net/url"
	"path"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// spec is a version of an OpenAPI specification read into plain values:
// every file of the version by its key (as openapispec stores them), with
// mappings kept in the order they were written, so that operations and
// schemas appear as their authors wrote them.
type spec struct {
	files map[string]any
	root  string
	size  int64
}

// omap is a YAML or JSON mapping with its keys in order.
type omap struct {
	keys []string
	vals map[string]any
}

func (m *omap) get(key string) any {
	if m == nil {
		return nil
	}
	return m.vals[key]
}

func (m *omap) str(key string) string {
	s, _ := m.get(key).(string)
	return s
}

func (m *omap) boolean(key string) bool {
	b, _ := m.get(key).(bool)
	return b
}

func (m *omap) obj(key string) *omap {
	o, _ := m.get(key).(*omap)
	return o
}

func (m *omap) list(key string) []any {
	l, _ := m.get(key).([]any)
	return l
}

// MarshalJSON writes the mapping with its keys in order.
func (m *omap) MarshalJSON() ([]byte, error) {
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range m.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		vb, err := json.Marshal(m.vals[k])
		if err != nil {
			return nil, err
		}
		b.Write(kb)
		b.WriteByte(':')
		b.Write(vb)
	}
	b.WriteByte('}')
	return []byte(b.String()), nil
}

// readSpec reads the files of a version. A version was validated when it
// was stored, so a file that does not read is an error of the store.
func readSpec(files map[string]string, root string) (*spec, error) {
	s := &spec{files: make(map[string]any, len(files)), root: root}
	for key, text := range files {
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(text), &n); err != nil {
			return nil, fmt.Errorf("read %s: %w", key, err)
		}
		v, err := plain(&n, 0)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", key, err)
		}
		s.files[key] = v
		s.size += int64(len(text))
	}
	if _, ok := s.files[root]; !ok {
		return nil, fmt.Errorf("the version has no root file %q", root)
	}
	return s, nil
}

// maxNesting bounds the nesting of a file's values (the YAML reader
// bounds it as well; this keeps the recursion below bounded whatever it
// allows).
const maxNesting = 1000

// plain turns a YAML node into values: *omap, []any, string, float64,
// bool, nil.
func plain(n *yaml.Node, depth int) (any, error) {
	if depth > maxNesting {
		return nil, fmt.Errorf("values nest deeper than %d", maxNesting)
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return plain(n.Content[0], depth+1)
	case yaml.AliasNode:
		if n.Alias == nil {
			return nil, nil
		}
		return plain(n.Alias, depth+1)
	case yaml.MappingNode:
		m := &omap{vals: make(map[string]any, len(n.Content)/2)}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i].Value
			if _, dup := m.vals[k]; dup {
				continue
			}
			v, err := plain(n.Content[i+1], depth+1)
			if err != nil {
				return nil, err
			}
			m.keys = append(m.keys, k)
			m.vals[k] = v
		}
		return m, nil
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := plain(c, depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.ScalarNode:
		var v any
		if err := n.Decode(&v); err != nil {
			return n.Value, nil
		}
		switch x := v.(type) {
		case int:
			return float64(x), nil
		case int64:
			return float64(x), nil
		case uint64:
			return float64(x), nil
		case float64, bool, string, nil:
			return x, nil
		}
		return n.Value, nil
	}
	return nil, nil
}

// maxHops bounds a chain of references ($ref to a $ref ...).
const maxHops = 20

// target is where a reference leads: the file it is in, the value, and
// a key naming it (file and pointer) to tell cycles.
type target struct {
	file, key, name string
	v               any
}

// deref follows the references of v (in file) to the value they name. A
// reference that leads nowhere gives a nil value.
func (s *spec) deref(file string, v any) target {
	t := target{file: file, v: v}
	for hop := 0; hop < maxHops; hop++ {
		m, ok := t.v.(*omap)
		if !ok {
			return t
		}
		ref, ok := m.get("$ref").(string)
		if !ok {
			return t
		}
		f, ptr := s.locate(t.file, ref)
		val, ok := s.files[f]
		if !ok {
			return target{file: f, key: f + "#" + ptr, name: refName(ptr)}
		}
		val = pointTo(val, ptr)
		t = target{file: f, key: f + "#" + ptr, name: refName(ptr), v: val}
	}
	return target{file: t.file, key: t.key, name: t.name}
}

// locate resolves a reference written in file to the key of the file it
// names and the JSON pointer in it.
func (s *spec) locate(file, ref string) (string, string) {
	where, ptr, _ := strings.Cut(ref, "#")
	if p, err := url.PathUnescape(ptr); err == nil {
		ptr = p
	}
	if where == "" {
		return file, ptr
	}
	if base, err := url.Parse(file); err == nil && base.Scheme != "" {
		if u, err := url.Parse(where); err == nil {
			return base.ResolveReference(u).String(), ptr
		}
	}
	if u, err := url.Parse(where); err == nil && u.Scheme != "" {
		return where, ptr
	}
	return path.Clean(path.Join(path.Dir(file), where)), ptr
}

// pointTo follows a JSON pointer (RFC 6901) into v; nil when it names
// nothing.
func pointTo(v any, ptr string) any {
	if ptr == "" || ptr == "/" {
		return v
	}
	for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch x := v.(type) {
		case *omap:
			v = x.get(tok)
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
		if v == nil {
			return nil
		}
	}
	return v
}

// refName is the name a reference gives its target: the component's
// name for a pointer into components, else its last token.
func refName(ptr string) string {
	toks := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
	last := toks[len(toks)-1]
	return strings.ReplaceAll(strings.ReplaceAll(last, "~1", "/"), "~0", "~")
}

// rootDoc is the root file's document.
func (s *spec) rootDoc() *omap {
	m, _ := s.files[s.root].(*omap)
	return m
}

// scalarText is a value as text: a string as it is, anything else as
// JSON.
func scalarText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return string(b)
}
