package content

import (
	"net/url"
	"slices"
	"sort"
	"strings"
	"text/template"

	"quire/internal/apierr"
	"quire/internal/document"
)

// Template is one of Quire's built-in content templates: a set of pages,
// written in Markdown, that ApplyTemplate adds to a space or a change
// request.
type Template struct {
	ID          string
	Title       string
	Description string
	// Params are the content references the template takes, by name.
	Params []TemplateParam
	pages  []templatePage
}

// TemplateParam is a content reference a template takes (a member of
// params.contentRefs).
type TemplateParam struct {
	Name        string
	Description string
	// Kinds are the accepted reference kinds (document.Ref*).
	Kinds    []string
	Required bool
}

// templatePage is a page a template creates.
type templatePage struct {
	// key names the page for parent and tpl-page: references.
	key string
	// parent is the key of the parent page; "" for the root level.
	parent      string
	typ         string // "" for document
	title       string
	emoji       string
	description string
	// body is the Markdown content, a text/template executed with a map
	// from every param name to whether it was given. In link destinations
	// (and content-ref urls), tpl-param:<name> stands for the reference of
	// a param and tpl-page:<key> for another page of the template.
	body string
	// link names the param whose reference a link page targets.
	link string
	// needs names a param without which the page is left out.
	needs string
	// tpl is body, parsed.
	tpl *template.Template
}

// Placeholders in template bodies.
const (
	paramScheme = "tpl-param:"
	pageScheme  = "tpl-page:"
)

// Templates lists the built-in templates, in this order:
//
//   - getting-started — Getting started: a welcome page, a quickstart and
//     a FAQ. Params: homepage (url, optional: the product website, linked
//     from the welcome page), support (url or user, optional: where
//     readers get help, linked from the FAQ).
//   - api-reference — API reference: a group with overview,
//     authentication, errors and endpoints pages around an OpenAPI
//     specification. Params: spec (openapi, required: the specification,
//     a content reference on the overview and endpoints pages), status
//     (url, optional: the service status page, linked from the errors
//     page).
//   - knowledge-base — Knowledge base: a home page with how-to guides,
//     troubleshooting and glossary pages. Params: support (url or user,
//     optional: linked from the troubleshooting page), related (space,
//     optional: another space shown as a content reference on the home
//     page).
//   - product-docs — Product documentation: an introduction, a Guides
//     group (installation, configuration, upgrading) and a Reference group
//     (concepts, release notes). Params: homepage (url, optional: linked
//     from the introduction), api (space, page or url, optional: the API
//     documentation, added as an "API reference" link page in the Reference
//     group).
//   - changelog — Changelog: a changelog page in the Keep a Changelog
//     style and a release checklist under it. Params: repository (url,
//     optional: the source repository, linked for the full history).
//   - meeting-notes — Meeting notes: an index page, a meeting template and
//     a decision log. Params: owner (user, optional: who runs the meetings,
//     named on the index page), calendar (url, optional: the meeting
//     calendar, linked from the index page).
//
// Pages get their slugs from their titles, made unique among their
// siblings, so a template can be applied more than once.
func Templates() []Template {
	out := make([]Template, len(builtinTemplates))
	for i, t := range builtinTemplates {
		out[i] = t.clone()
	}
	return out
}

// TemplateByID returns the built-in template id.
// Errors: BadRequest (field id) for an unknown id.
func TemplateByID(id string) (Template, error) {
	for _, t := range builtinTemplates {
		if t.ID == id {
			return t.clone(), nil
		}
	}
	ids := make([]string, len(builtinTemplates))
	for i, t := range builtinTemplates {
		ids[i] = t.ID
	}
	return Template{}, apierr.Invalid("id", "Unknown template %q: id must be one of %s", id, strings.Join(ids, ", "))
}

func (t Template) clone() Template {
	t.Params = slices.Clone(t.Params)
	for i := range t.Params {
		t.Params[i].Kinds = slices.Clone(t.Params[i].Kinds)
	}
	return t
}

// param returns the template's param name.
func (t Template) param(name string) (TemplateParam, bool) {
	for _, p := range t.Params {
		if p.Name == name {
			return p, true
		}
	}
	return TemplateParam{}, false
}

// CheckParams validates the content references given to the template:
// every name is one of its params, required params are given, and each
// reference is complete and of an accepted kind. It returns the references
// normalized (fields their kind does not use are dropped).
// Errors: BadRequest (field params.contentRefs.<name>).
func (t Template) CheckParams(refs map[string]document.ContentRef) (map[string]document.ContentRef, error) {
	names := make([]string, 0, len(refs))
	for name := range refs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if _, ok := t.param(name); !ok {
			known := make([]string, len(t.Params))
			for i, p := range t.Params {
				known[i] = p.Name
			}
			msg := "template " + t.ID + " takes no params"
			if len(known) > 0 {
				msg = "template " + t.ID + " takes " + strings.Join(known, ", ")
			}
			return nil, apierr.Invalid(paramField(name), "Unknown param %q: %s", name, msg)
		}
	}
	out := make(map[string]document.ContentRef, len(refs))
	for _, p := range t.Params {
		r, given := refs[p.Name]
		if !given {
			if p.Required {
				return nil, apierr.Invalid(paramField(p.Name), "%s is required: %s", paramField(p.Name), p.Description)
			}
			continue
		}
		norm, err := checkTemplateRef(paramField(p.Name), r, p.Kinds)
		if err != nil {
			return nil, err
		}
		out[p.Name] = norm
	}
	return out, nil
}

func paramField(name string) string { return "params.contentRefs." + name }

// checkTemplateRef validates a content reference the way link targets are
// validated: a known kind (one of kinds) with every field it uses set.
func checkTemplateRef(field string, r document.ContentRef, kinds []string) (document.ContentRef, error) {
	if !slices.Contains(kinds, r.Kind) {
		return r, apierr.Invalid(field, "%s.kind must be %s (got %q)", field, orList(kinds), r.Kind)
	}
	n := document.Node{Data: map[string]any{"ref": r.Map()}}
	norm, ok := n.Ref()
	if !ok {
		return r, apierr.Invalid(field, "%s.kind %q is not a content reference kind", field, r.Kind)
	}
	for k, v := range norm.Map() {
		if v == "" {
			return r, apierr.Invalid(field, "%s.%s is required for a %s reference", field, k, r.Kind)
		}
	}
	if norm.Kind == document.RefURL {
		u, err := url.Parse(norm.URL)
		if err != nil || u.Scheme == "" || (u.Host == "" && u.Opaque == "") || strings.ContainsAny(norm.URL, " \t\r\n") {
			return r, apierr.Invalid(field, "%s.url must be an absolute URL (got %q)", field, norm.URL)
		}
	}
	return norm, nil
}

func orList(s []string) string {
	switch len(s) {
	case 0:
		return "nothing"
	case 1:
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

// parseTemplates parses the page bodies of the built-in templates.
func parseTemplates(ts []Template) []Template {
	for i := range ts {
		for j := range ts[i].pages {
			p := &ts[i].pages[j]
			if p.body != "" {
				p.tpl = template.Must(template.New(ts[i].ID + "/" + p.key).Option("missingkey=error").Parse(p.body))
			}
		}
	}
	return ts
}
