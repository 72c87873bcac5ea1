package main

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
)

// diff returns up to max differences between two decoded JSON values.
func diff(a, b any, path string, max int) []string {
	var out []string
	var walk func(a, b any, path string)
	walk = func(a, b any, path string) {
		if len(out) >= max {
			return
		}
		switch av := a.(type) {
		case map[string]any:
			bv, ok := b.(map[string]any)
			if !ok {
				out = append(out, fmt.Sprintf("%s: object vs %T", path, b))
				return
			}
			keys := map[string]bool{}
			for k := range av {
				keys[k] = true
			}
			for k := range bv {
				keys[k] = true
			}
			sorted := make([]string, 0, len(keys))
			for k := range keys {
				sorted = append(sorted, k)
			}
			sort.Strings(sorted)
			for _, k := range sorted {
				x, okA := av[k]
				y, okB := bv[k]
				switch {
				case !okA:
					out = append(out, fmt.Sprintf("%s.%s: missing on the left (right: %s)", path, k, short(y)))
				case !okB:
					out = append(out, fmt.Sprintf("%s.%s: missing on the right (left: %s)", path, k, short(x)))
				default:
					walk(x, y, path+"."+k)
				}
				if len(out) >= max {
					return
				}
			}
		case []any:
			bv, ok := b.([]any)
			if !ok {
				out = append(out, fmt.Sprintf("%s: array vs %T", path, b))
				return
			}
			if len(av) != len(bv) {
				out = append(out, fmt.Sprintf("%s: %d items vs %d", path, len(av), len(bv)))
				return
			}
			for i := range av {
				walk(av[i], bv[i], fmt.Sprintf("%s[%d]", path, i))
			}
		case string:
			// GraphQL spells enum values with underscores, REST with dashes.
			bv, ok := b.(string)
			if !ok || (av != bv && !(enumKeys[path[strings.LastIndex(path, ".")+1:]] && strings.ReplaceAll(av, "_", "-") == strings.ReplaceAll(bv, "_", "-"))) {
				out = append(out, fmt.Sprintf("%s: %s vs %s", path, short(a), short(b)))
			}
		default:
			if !reflect.DeepEqual(a, b) {
				out = append(out, fmt.Sprintf("%s: %s vs %s", path, short(a), short(b)))
			}
		}
	}
	walk(a, b, path)
	return out
}

func short(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 80 {
		return string(b[:80]) + "..."
	}
	return string(b)
}

// enumKeys are the members holding enum values.
var enumKeys = map[string]bool{"type": true, "appliedType": true, "visibility": true, "agentsContext": true,
	"plan": true, "editMode": true, "defaultLevel": true, "language": true}

// dropNulls removes null members of objects, recursively: the REST door
// omits absent optional fields where GraphQL answers null.
func dropNulls(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if e == nil {
				delete(x, k)
				continue
			}
			x[k] = dropNulls(e)
		}
	case []any:
		for i := range x {
			x[i] = dropNulls(x[i])
		}
	}
	return v
}

// graphQLAsREST rebuilds the REST published document from the GraphQL
// answer to publishedQuery, so that the two can be compared.
func graphQLAsREST(raw []byte) (any, error) {
	var resp struct {
		Data struct {
			Site map[string]any `json:"site"`
		} `json:"data"`
		Errors []any `json:"errors"`
	}
	if err := json.Unmarshal(raw, &resp); err != nil {
		return nil, err
	}
	if len(resp.Errors) > 0 || resp.Data.Site == nil {
		return nil, fmt.Errorf("GraphQL errors: %s", short(resp.Errors))
	}
	site := dropNulls(resp.Data.Site).(map[string]any)
	id := func(v any) any {
		if m, ok := v.(map[string]any); ok {
			return m["id"]
		}
		return v
	}
	if fs, ok := site["features"].([]any); ok {
		for _, f := range fs {
			if m, ok := f.(map[string]any); ok {
				if c, ok := m["customizations"].([]any); ok && len(c) == 0 {
					delete(m, "customizations")
				}
			}
		}
	}
	settings := map[string]any{}
	var structure []any
	secConn, _ := site["sections"].(map[string]any)
	secs, _ := secConn["nodes"].([]any)
	for _, s := range secs {
		sec := s.(map[string]any)
		if g, ok := sec["sectionGroup"]; ok {
			sec["sectionGroup"] = id(g)
		}
		ssConn, _ := sec["siteSpaces"].(map[string]any)
		sss, _ := ssConn["nodes"].([]any)
		if sss == nil {
			sss = []any{}
		}
		for _, x := range sss {
			ss := x.(map[string]any)
			if v, ok := ss["section"]; ok {
				ss["section"] = id(v)
			}
			settings[ss["id"].(string)] = ss["customization"]
			delete(ss, "customization")
			if sp, ok := ss["space"].(map[string]any); ok {
				for _, k := range []string{"organization", "parent"} {
					if v, ok := sp[k]; ok {
						sp[k] = id(v)
					}
				}
			}
		}
		sec["siteSpaces"] = sss
		structure = append(structure, sec)
	}
	if structure == nil {
		structure = []any{}
	}
	cust := site["customization"]
	delete(site, "customization")
	delete(site, "sections")
	return map[string]any{
		"object":         "published-content-site",
		"site":           site,
		"structure":      map[string]any{"type": "sections", "structure": structure},
		"customizations": map[string]any{"site": cust, "siteSpaces": settings},
		"scripts":        []any{},
	}, nil
}

// decode parses a JSON document and drops its null members.
func decode(raw []byte) (any, error) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	return dropNulls(v), nil
}
