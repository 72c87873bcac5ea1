package adaptive

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"quire/internal/conditions"
)

// TemplateCondition is a suggested condition derived from a site's adaptive
// schema (SiteAdaptiveTemplateCondition).
type TemplateCondition struct {
	Description string `json:"description"`
	Condition   string `json:"condition"`
}

// TemplateConditions derives one condition per claim of a stored adaptive
// schema (the jsonSchema value), in declaration order:
//
//	boolean beta               visitor.claims.beta
//	unsigned boolean beta      visitor.claims.unsigned.beta
//	string plan, enum [pro..]  visitor.claims.plan == "pro"
//	string plan                visitor.claims.plan != nil && visitor.claims.plan != ""
//	number seats               visitor.claims.seats > 0
//	array roles, items enum    "admin" in visitor.claims.roles
//	array tags                 len(visitor.claims.tags) > 0
//	object company {tier ...}  visitor.claims.company.tier ... (recursively)
//
// The description is the claim's own description if it has one. Every
// condition returned passes conditions.Check. A schema that cannot be read
// yields no conditions; the result is never nil.
func TemplateConditions(schema json.RawMessage) []TemplateCondition {
	out := []TemplateCondition{}
	doc, err := parse(schema, false)
	if err != nil || doc.kind != kindObject {
		return out
	}
	props := doc.get("properties")
	if props == nil || props.kind != kindObject {
		return out
	}
	for _, name := range props.keys {
		n := props.fields[name]
		if name == UnsignedProperty && n.get("type") != nil {
			if s, _ := n.get("type").stringValue(); s == TypeObject {
				if up := n.get("properties"); up != nil && up.kind == kindObject {
					for _, un := range up.keys {
						out = templates(out, []string{UnsignedProperty, un}, up.fields[un], 1)
					}
				}
				continue
			}
		}
		out = templates(out, []string{name}, n, 1)
	}
	return out
}

// templates appends the conditions for the claim at segs (its path under
// visitor.claims).
func templates(out []TemplateCondition, segs []string, n *node, depth int) []TemplateCondition {
	if n == nil || n.kind != kindObject || depth > MaxDepth {
		return out
	}
	ref := reference(segs)
	label := displayName(segs)
	desc, _ := n.get("description").stringValue()
	desc = strings.TrimSpace(desc)

	var cond, fallback string
	switch typ, _ := n.get("type").stringValue(); typ {
	case TypeBoolean:
		cond, fallback = ref, "Visitor has "+label
	case TypeString:
		if v, ok := firstEnum(n); ok {
			cond = ref + " == " + strconv.Quote(v)
			fallback = fmt.Sprintf("Visitor %s is %s", label, strconv.Quote(v))
		} else {
			// nil != "" holds, so a missing claim must be ruled out too.
			cond, fallback = ref+" != nil && "+ref+` != ""`, "Visitor "+label+" is set"
		}
	case TypeNumber:
		cond, fallback = ref+" > 0", "Visitor "+label+" is greater than 0"
	case TypeArray:
		if v, ok := firstEnum(n.get("items")); ok {
			cond = strconv.Quote(v) + " in " + ref
			fallback = fmt.Sprintf("Visitor %s includes %s", label, strconv.Quote(v))
		} else {
			cond, fallback = "len("+ref+") > 0", "Visitor "+label+" is not empty"
		}
	case TypeObject:
		props := n.get("properties")
		if props == nil || props.kind != kindObject {
			return out
		}
		for _, child := range props.keys {
			next := make([]string, len(segs), len(segs)+1)
			copy(next, segs)
			out = templates(out, append(next, child), props.fields[child], depth+1)
		}
		return out
	default:
		return out
	}
	if desc == "" {
		desc = fallback
	}
	if conditions.Check("condition", cond) != nil {
		return out // e.g. absurdly long claim names
	}
	return append(out, TemplateCondition{Description: desc, Condition: cond})
}

// firstEnum returns the first enum value of a string schema.
func firstEnum(n *node) (string, bool) {
	if n == nil {
		return "", false
	}
	if t, _ := n.get("type").stringValue(); t != TypeString {
		return "", false
	}
	e := n.get("enum")
	if e == nil || e.kind != kindArray || len(e.items) == 0 {
		return "", false
	}
	return e.items[0].stringValue()
}

// reserved are words that cannot safely follow a dot in an expression.
var reserved = map[string]bool{
	"not": true, "in": true, "or": true, "and": true, "matches": true,
	"contains": true, "startsWith": true, "endsWith": true, "let": true,
	"if": true, "else": true, "true": true, "false": true, "nil": true,
}

// reference renders the expression for a claim: visitor.claims.a.b, with
// bracket access for names that are not plain identifiers.
func reference(segs []string) string {
	var b strings.Builder
	b.WriteString("visitor.claims")
	for _, s := range segs {
		if isIdent(s, false) && !reserved[s] {
			b.WriteString(".")
			b.WriteString(s)
		} else {
			b.WriteString("[")
			b.WriteString(strconv.Quote(s))
			b.WriteString("]")
		}
	}
	return b.String()
}

// displayName is the claim's dotted name, without the unsigned prefix.
func displayName(segs []string) string {
	if len(segs) > 1 && segs[0] == UnsignedProperty {
		segs = segs[1:]
	}
	return strings.Join(segs, ".")
}
