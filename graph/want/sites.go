// Package want derives from a GraphQL selection set what a read of an
// aggregate wants (sites.Want, comments.Want, ...), so that each engine
// plans its statements once for the whole selection. REST and other
// callers pass those Wants literally.
package want

import (
	"context"
	"slices"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"

	"quire/internal/loaders"
	"quire/internal/sites"
)

// What a GraphQL query selects, turned into the Want of an engine's read:
// the generic part (which nested field paths are selected) first, then
// one function per aggregate. Outside GraphQL (REST, the reader, jobs)
// nothing is selected: those callers pass Want literally.

// selection is the selection set of the GraphQL field being resolved; ok
// is false outside GraphQL.
func selection(ctx context.Context) (oc *graphql.OperationContext, sel ast.SelectionSet, ok bool) {
	fc := graphql.GetFieldContext(ctx)
	if fc == nil || !graphql.HasOperationContext(ctx) {
		return nil, nil, false
	}
	return graphql.GetOperationContext(ctx), fc.Field.Selections, true
}

// collect returns the fields reached from sel through a path, one field
// name per step: a step "a|b" matches either name; "name?" matches that
// field or, when there is none, stands for the level it is at (a
// connection's edges { node } or nodes). Fragments of every type are
// followed.
func collect(oc *graphql.OperationContext, sel ast.SelectionSet, path ...string) []graphql.CollectedField {
	level := []graphql.CollectedField{{Selections: sel}}
	for _, step := range path {
		optional := strings.HasSuffix(step, "?")
		names := strings.Split(strings.TrimSuffix(step, "?"), "|")
		var next []graphql.CollectedField
		for _, f := range level {
			found := false
			for _, c := range graphql.CollectFields(oc, f.Selections, nil) {
				if slices.Contains(names, c.Name) {
					next = append(next, c)
					found = true
				}
			}
			if optional && !found {
				next = append(next, f)
			}
		}
		level = next
	}
	return level
}

// selectsAny reports whether sel reaches one of the paths, each written
// as its steps joined by dots.
func selectsAny(oc *graphql.OperationContext, sel ast.SelectionSet, paths ...string) bool {
	for _, p := range paths {
		if len(collect(oc, sel, strings.Split(p, ".")...)) > 0 {
			return true
		}
	}
	return false
}

// selected reports whether the selection set of the GraphQL field being
// resolved reaches the path (its steps as collect reads them); false
// outside GraphQL. Sibling items of a list ask the same question of the
// same field: the answer is kept for the request.
func selected(ctx context.Context, path ...string) bool {
	oc, sel, ok := selection(ctx)
	if !ok {
		return false
	}
	fc := graphql.GetFieldContext(ctx)
	if fc.Field.Field == nil {
		return len(collect(oc, sel, path...)) > 0
	}
	type key struct {
		field *ast.Field
		path  string
	}
	return loaders.For(ctx).Remember(key{fc.Field.Field, strings.Join(path, ".")}, func() any {
		return len(collect(oc, sel, path...)) > 0
	}).(bool)
}

// argumentGiven reports whether a field reached from sel (at any depth up
// to a bound) has a non-null value for the named argument.
func argumentGiven(oc *graphql.OperationContext, sel ast.SelectionSet, name string, depth int) bool {
	if depth > 12 {
		return false
	}
	for _, f := range graphql.CollectFields(oc, sel, nil) {
		if f.Field != nil && f.Definition != nil && f.Definition.Arguments.ForName(name) != nil {
			if v, ok := f.ArgumentMap(oc.Variables)[name]; ok && v != nil {
				if s, isStr := v.(*string); !isStr || s != nil {
					return true
				}
			}
		}
		if argumentGiven(oc, f.Selections, name, depth+1) {
			return true
		}
	}
	return false
}

// The paths from a site to the spaces of its site spaces, and from a site
// space to its space.
var (
	siteSpacePaths = []string{
		"sections.nodes|edges.node?.siteSpaces.nodes|edges.node?",
		"allSiteSpaces.nodes|edges.node?",
		"defaultSiteSpace",
		"structure.structure.siteSpaces.nodes|edges.node?",
		"structure.structure",
		"publishedContent.structure.structure.siteSpaces.nodes|edges.node?",
		"publishedContent.structure.structure",
	}
	siteStructureFields = []string{"sections", "sectionGroups", "allSiteSpaces", "siteSpaces", "structure",
		"defaultSiteSpace", "defaultSiteSection", "urls", "publishedContent"}
)

// Site derives from a site's selection set what to read of its
// aggregate.
func Site(oc *graphql.OperationContext, sel ast.SelectionSet) sites.Want {
	var w sites.Want
	w.Structure = selectsAny(oc, sel, siteStructureFields...)
	if !w.Structure {
		return w
	}
	for _, p := range siteSpacePaths {
		for _, ss := range collect(oc, sel, strings.Split(p, ".")...) {
			for _, sp := range collect(oc, ss.Selections, "space") {
				w.Spaces = true
				w.Organizations = w.Organizations || selectsAny(oc, sp.Selections, "organization")
				w.Collections = w.Collections || selectsAny(oc, sp.Selections, "permissions", "parent")
			}
		}
	}
	if selectsAny(oc, sel, "publishedContent") {
		// The published profile reads them whatever it presents.
		w.Spaces, w.Collections = true, true
	}
	w.ShareLinks = argumentGiven(oc, sel, "shareKey", 0)
	return w
}

// SiteHere is Site for the site field being resolved.
func SiteHere(ctx context.Context) sites.Want {
	oc, sel, ok := selection(ctx)
	if !ok {
		return sites.Want{}
	}
	return Site(oc, sel)
}

// SitesHere is Site for the sites of the connection being
// resolved, every way its nodes are selected together.
func SitesHere(ctx context.Context) sites.Want {
	oc, sel, ok := selection(ctx)
	if !ok {
		return sites.Want{}
	}
	var w sites.Want
	for _, n := range collect(oc, sel, "nodes|edges", "node?") {
		x := Site(oc, n.Selections)
		w = sites.Want{Structure: w.Structure || x.Structure, Spaces: w.Spaces || x.Spaces, Collections: w.Collections || x.Collections,
			Organizations: w.Organizations || x.Organizations, ShareLinks: w.ShareLinks || x.ShareLinks}
	}
	return w
}

// SiteSpaceSpace is what the space field of a site space being
// resolved reads of its site's aggregate.
func SiteSpaceSpace(ctx context.Context) sites.Want {
	return sites.Want{Spaces: true, Organizations: selected(ctx, "organization"),
		Collections: selected(ctx, "permissions|parent")}
}
