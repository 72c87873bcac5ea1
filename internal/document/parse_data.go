package document

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"

	"quire/internal/apierr"
)

// dataCheck validates the members of a data object, keeping the first
// error.
type dataCheck struct {
	d    map[string]any
	path *jsonPath
	err  error
}

func (c *dataCheck) fail(key, format string, args ...any) {
	if c.err == nil {
		p := c.path.String() + "." + key
		c.err = apierr.Invalid(p, "%s: %s", p, fmt.Sprintf(format, args...))
	}
}

func (c *dataCheck) get(key string, required bool) (any, bool) {
	v, ok := c.d[key]
	if !ok && required {
		c.fail(key, "is required")
	}
	return v, ok
}

func (c *dataCheck) str(key string, required bool) {
	if v, ok := c.get(key, required); ok {
		if _, isStr := v.(string); !isStr {
			c.fail(key, "must be a string")
		}
	}
}

func (c *dataCheck) pattern(key string, re *regexp.Regexp) {
	if v, ok := c.get(key, false); ok {
		if s, isStr := v.(string); !isStr || !re.MatchString(s) {
			c.fail(key, "must be a string matching %s", re.String())
		}
	}
}

func (c *dataCheck) enum(key string, required bool, values ...string) {
	v, ok := c.get(key, required)
	if !ok {
		return
	}
	s, _ := v.(string)
	for _, allowed := range values {
		if s == allowed {
			if _, isStr := v.(string); isStr {
				return
			}
		}
	}
	c.fail(key, "must be one of %s", strings.Join(values, ", "))
}

func (c *dataCheck) boolean(key string) {
	if v, ok := c.get(key, false); ok {
		if _, isBool := v.(bool); !isBool {
			c.fail(key, "must be a boolean")
		}
	}
}

func (c *dataCheck) number(key string) {
	if v, ok := c.get(key, false); ok {
		if f, isNum := v.(float64); !isNum || math.IsNaN(f) || math.IsInf(f, 0) {
			c.fail(key, "must be a number")
		}
	}
}

func (c *dataCheck) integer(key string, min float64) {
	if v, ok := c.get(key, false); ok {
		if f, isNum := v.(float64); !isNum || f != math.Trunc(f) || f < min {
			c.fail(key, "must be an integer of at least %v", min)
		}
	}
}

func (c *dataCheck) object(key string, required bool) {
	if v, ok := c.get(key, required); ok {
		if _, isObj := v.(map[string]any); !isObj {
			c.fail(key, "must be an object")
		}
	}
}

// length accepts a number or {unit, value}.
func (c *dataCheck) length(key string) {
	v, ok := c.get(key, false)
	if !ok {
		return
	}
	switch x := v.(type) {
	case float64:
		return
	case map[string]any:
		if _, ok := x["unit"].(string); ok {
			if _, ok := x["value"].(float64); ok {
				return
			}
		}
	}
	c.fail(key, "must be a number or an object with unit and value")
}

// ref checks a ContentRef; kinds limits the accepted kinds (all when empty).
func (c *dataCheck) ref(key string, required bool, kinds ...string) {
	v, ok := c.get(key, required)
	if !ok || c.err != nil {
		return
	}
	if err := checkRef(v, c.path.field(key), kinds...); err != nil {
		c.err = err
	}
}

func checkRef(v any, at *jsonPath, kinds ...string) error {
	m, ok := v.(map[string]any)
	if !ok {
		path := at.String()
		return apierr.Invalid(path, "%s must be a content reference object", path)
	}
	kind, _ := m["kind"].(string)
	idField, known := refIDField[kind]
	allowed := known
	if known && len(kinds) > 0 {
		allowed = false
		for _, k := range kinds {
			allowed = allowed || k == kind
		}
	}
	if !allowed {
		accepted := kinds
		if len(accepted) == 0 {
			accepted = []string{RefFile, RefURL, RefPage, RefAnchor, RefUser, RefCollection, RefSpace, RefReusableContent, RefOpenAPI}
		}
		path := at.String()
		return apierr.Invalid(path+".kind", "%s.kind must be one of %s", path, strings.Join(accepted, ", "))
	}
	id, isStr := m[idField].(string)
	if !isStr || (id == "" && kind != RefURL) {
		path := at.String()
		return apierr.Invalid(path+"."+idField, "%s.%s is required for a %s reference", path, idField, kind)
	}
	for _, opt := range []string{"space", "page"} {
		if opt == idField {
			continue
		}
		if x, present := m[opt]; present {
			if _, isStr := x.(string); !isStr {
				path := at.String()
				return apierr.Invalid(path+"."+opt, "%s.%s must be a string", path, opt)
			}
		}
	}
	return nil
}

func tableData(c *dataCheck) {
	view, _ := c.get("view", true)
	defs, _ := c.get("definition", true)
	records, _ := c.get("records", true)
	if c.err != nil {
		return
	}
	defMap, ok := defs.(map[string]any)
	if !ok {
		c.fail("definition", "must be an object")
		return
	}
	for _, id := range sortedAnyKeys(defMap) {
		p := "definition." + id
		d, ok := defMap[id].(map[string]any)
		if !ok {
			c.fail(p, "must be an object")
			return
		}
		dc := &dataCheck{d: d, path: c.path.field("definition").field(id)}
		dc.str("id", true)
		dc.str("title", true)
		dc.enum("type", true, tableDefinitionTypes...)
		switch d["type"] {
		case "text":
			dc.enum("textAlignment", true, "center", "right", "left")
			dc.enum("verticalAlignment", false, "top", "middle", "bottom")
		case "rating":
			if _, ok := d["max"].(float64); !ok {
				dc.fail("max", "is required and must be a number")
			}
		case "select":
			if _, ok := d["multiple"].(bool); !ok {
				dc.fail("multiple", "is required and must be a boolean")
			}
			if _, ok := d["options"].([]any); !ok {
				dc.fail("options", "is required and must be an array")
			}
		case "users":
			if _, ok := d["multiple"].(bool); !ok {
				dc.fail("multiple", "is required and must be a boolean")
			}
		}
		if dc.err != nil {
			c.err = dc.err
			return
		}
	}
	vm, ok := view.(map[string]any)
	if !ok {
		c.fail("view", "must be an object")
		return
	}
	vc := &dataCheck{d: vm, path: c.path.field("view")}
	vc.enum("type", true, "grid", "cards")
	cols, ok := vm["columns"].([]any)
	if !ok {
		vc.fail("columns", "is required and must be an array")
	}
	for i, col := range cols {
		id, isStr := col.(string)
		if _, defined := defMap[id]; !isStr || !defined {
			vc.fail(fmt.Sprintf("columns[%d]", i), "must name a definition")
		}
	}
	switch vm["type"] {
	case "grid":
		if _, ok := vm["hideHeader"].(bool); !ok {
			vc.fail("hideHeader", "is required and must be a boolean")
		}
	case "cards":
		vc.enum("cardSize", true, "medium", "large")
	}
	if vc.err != nil {
		c.err = vc.err
		return
	}
	recMap, ok := records.(map[string]any)
	if !ok {
		c.fail("records", "must be an object")
		return
	}
	for _, id := range sortedAnyKeys(recMap) {
		p := "records." + id
		r, ok := recMap[id].(map[string]any)
		if !ok {
			c.fail(p, "must be an object")
			return
		}
		rc := &dataCheck{d: r, path: c.path.field("records").field(id)}
		rc.str("orderIndex", true)
		rc.object("values", true)
		if rc.err != nil {
			c.err = rc.err
			return
		}
	}
}

func sortedAnyKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
