package rest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"log/slog"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"quire/graph"
	"quire/internal/catalog"
	"quire/internal/comments"
	"quire/internal/conditions"
	"quire/internal/content"
	"quire/internal/conversations"
	"quire/internal/grants"
	"quire/internal/members"
	"quire/internal/openapispec"
	"quire/internal/orgs"
	"quire/internal/reviews"
	"quire/internal/sites"
	"quire/internal/sso"
)

// engineLimits are the constants a body's limit tag may name. The engines
// enforce them; a body declares the same number for its OpenAPI document
// and its decoder, so both doors refuse the same values.
var engineLimits = map[string]int{
	"nonEmpty": 1, // a required string: at least one character

	"sites.TitleMin": sites.TitleMin, "sites.TitleMax": sites.TitleMax,
	"sites.BasenameMax": sites.BasenameMax, "sites.PathMax": sites.PathMax,
	"sites.GroupTitleMax": sites.GroupTitleMax, "sites.IconMax": sites.IconMax,
	"sites.DescriptionMax": sites.DescriptionMax, "sites.ShareLinkNameMax": sites.ShareLinkNameMax,

	"catalog.TitleMax": catalog.TitleMax, "catalog.EmojiMax": catalog.EmojiMax,
	"catalog.IconMax": catalog.IconMax, "catalog.DescriptionMax": catalog.DescriptionMax,

	"orgs.TitleMin": orgs.TitleMin, "orgs.TitleMax": orgs.TitleMax,
	"orgs.HostnameMin": orgs.HostnameMin, "orgs.HostnameMax": orgs.HostnameMax,
	"orgs.MaxEmailDomains": orgs.MaxEmailDomains, "orgs.MaxLogoURL": orgs.MaxLogoURL,

	"content.MaxSubject": content.MaxSubject,

	"comments.MaxTargetID": comments.MaxTargetID, "comments.MaxReactionsPerRequest": comments.MaxReactionsPerRequest,

	"reviews.MaxUsers": reviews.MaxUsers,

	"conversations.MaxID": conversations.MaxID, "conversations.MaxSubject": conversations.MaxSubject,
	"conversations.MaxSource": conversations.MaxSource, "conversations.MaxParts": conversations.MaxParts,
	"conversations.MaxPartBody": conversations.MaxPartBody, "conversations.MaxURL": conversations.MaxURL,

	"openapispec.MaxSlug": openapispec.MaxSlug, "openapispec.MaxURL": openapispec.MaxURL,

	"members.MaxSearch": members.MaxSearch, "members.TeamTitleMax": members.TeamTitleMax,
	"members.MaxTeamMembers": members.MaxTeamMembers,

	"grants.MaxInvite": grants.MaxInvite,

	"sso.MaxLabel": sso.MaxLabel, "sso.MaxEntityID": sso.MaxEntityID,
	"sso.MaxCertificate": sso.MaxCertificate, "sso.MaxSSOURL": sso.MaxSSOURL,

	"conditions.MaxLength": conditions.MaxLength,
}

// restOnlyLimits are limits that only the REST door declares: no engine
// checks them yet, so GraphQL does not refuse what they refuse. Each is
// named here so that the list stays visible; it should only shrink.
var restOnlyLimits = map[string]int{
	"rest.MaxMergeRules":      50,
	"rest.MaxMergeRuleExpr":   1024,
	"rest.MaxMergeRuleUsers":  1000,
	"rest.MaxSiteSpaceIDs":    1000,
	"rest.MaxGroupSectionIDs": 1000,
}

// boundTags are the struct tags that carry a number the engines own.
var boundTags = []string{"minLength", "maxLength", "minimum", "maximum", "maxItems"}

// parseLimitTag reads limit:"maxLength=sites.TitleMax,minLength=nonEmpty".
func parseLimitTag(tag string) (map[string]string, error) {
	out := map[string]string{}
	if tag == "" {
		return out, nil
	}
	for _, part := range strings.Split(tag, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok || k == "" || v == "" {
			return nil, strconv.ErrSyntax
		}
		out[k] = v
	}
	return out, nil
}

// checkBodyLimits returns what is wrong with the bound tags of t and the
// structs it contains: a bound without a limit naming its constant, a
// limit naming an unknown constant, or a number that differs from it.
func checkBodyLimits(t reflect.Type, path string, seen map[reflect.Type]bool, owned func(string) bool) []string {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
		t = t.Elem()
	}
	if et, ok := optElem(t); ok {
		return checkBodyLimits(et, path, seen, owned)
	}
	if t.Kind() != reflect.Struct || seen[t] || t == timeType {
		return nil
	}
	seen[t] = true
	var bad []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		where := path + "." + t.Name() + "." + f.Name
		if !owned(t.Name()) {
			bad = append(bad, checkBodyLimits(f.Type, path, seen, owned)...)
			continue
		}
		limits, err := parseLimitTag(f.Tag.Get("limit"))
		if err != nil {
			bad = append(bad, where+`: limit tag is not "bound=constant,..."`)
			continue
		}
		for _, k := range boundTags {
			v, has := f.Tag.Lookup(k)
			name, named := limits[k]
			switch {
			case has && !named:
				bad = append(bad, where+": "+k+":"+strconv.Quote(v)+" names no constant (add "+k+"=pkg.Const to its limit tag)")
			case !has && named:
				bad = append(bad, where+": limit names "+name+" for "+k+", which the field does not declare")
			case has:
				want, known := engineLimits[name]
				if !known {
					want, known = restOnlyLimits[name]
				}
				n, err := strconv.Atoi(v)
				switch {
				case !known:
					bad = append(bad, where+": "+k+" names unknown constant "+name)
				case err != nil || n != want:
					bad = append(bad, where+": "+k+":"+strconv.Quote(v)+" but "+name+" is "+strconv.Itoa(want))
				}
			}
			delete(limits, k)
		}
		for k := range limits {
			bad = append(bad, where+": limit names unknown bound "+k)
		}
		bad = append(bad, checkBodyLimits(f.Type, path, seen, owned)...)
	}
	return bad
}

// Every bound a body or a query declares is an engine's constant: the tag
// names it, and its number is the constant's.
func TestBodyLimitsAreTheEnginesConstants(t *testing.T) {
	a := New(&graph.Resolver{}, slog.Default())
	bodies := bodyTypeNames(t)
	owned := func(name string) bool { return bodies[name] }
	seen := map[reflect.Type]bool{}
	var bad []string
	checked := 0
	for _, rt := range a.Routes() {
		for _, typ := range []reflect.Type{rt.Request, rt.query} {
			if typ != nil {
				checked++
				bad = append(bad, checkBodyLimits(typ, rt.Method+" "+rt.Pattern, seen, owned)...)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no bodies checked")
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Error(b)
	}
}

// The check fails when a tag and its constant disagree, or when a bound
// names no constant.
func TestBodyLimitsCheckFails(t *testing.T) {
	type wrong struct {
		Title string `json:"title" maxLength:"127" limit:"maxLength=sites.TitleMax"`
	}
	type unnamed struct {
		Title string `json:"title" maxLength:"128"`
	}
	type unknown struct {
		Title string `json:"title" maxLength:"128" limit:"maxLength=sites.NoSuchLimit"`
	}
	type right struct {
		Title string `json:"title" minLength:"2" maxLength:"128" limit:"minLength=sites.TitleMin,maxLength=sites.TitleMax"`
	}
	all := func(string) bool { return true }
	for _, typ := range []reflect.Type{reflect.TypeFor[wrong](), reflect.TypeFor[unnamed](), reflect.TypeFor[unknown]()} {
		if bad := checkBodyLimits(typ, "test", map[reflect.Type]bool{}, all); len(bad) != 1 {
			t.Errorf("%v: got %q, want one complaint", typ, bad)
		}
	}
	if bad := checkBodyLimits(reflect.TypeFor[right](), "test", map[reflect.Type]bool{}, all); len(bad) != 0 {
		t.Errorf("right: %q", bad)
	}
}

// bodyTypeNames are the types declared in bodies_*.go, the files that hold
// the documented request bodies and query parameters.
func bodyTypeNames(t *testing.T) map[string]bool {
	files, err := filepath.Glob("bodies_*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("bodies_*.go: %v", err)
	}
	names := map[string]bool{}
	for _, name := range files {
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatalf("parse %s: %v", name, err)
		}
		for _, d := range f.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.TYPE {
				for _, sp := range g.Specs {
					names[sp.(*ast.TypeSpec).Name.Name] = true
				}
			}
		}
	}
	return names
}
