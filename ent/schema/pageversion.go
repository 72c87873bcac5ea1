package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"quire/internal/document"
	"quire/internal/ids"
	"quire/internal/types"
)

// PageVersion is one immutable state of a page: its place in the tree, its
// properties and a reference to its document. Revisions point at page
// versions through revision entries, so a page that does not change is
// shared by every revision (and every duplicated space) that holds it.
// Rows are never updated; they are deleted by the purge once no revision
// entry refers to them.
type PageVersion struct{ ent.Schema }

// Fields of the PageVersion.
func (PageVersion) Fields() []ent.Field {
	return []ent.Field{
		field.String("id").DefaultFunc(ids.Generator(ids.PageVersion)).Immutable(),
		// The space the version was written in (a duplicated space shares it).
		field.String("space_id").Immutable(),
		// Stable id of the page across revisions.
		field.String("page_id").Immutable(),
		// Parent page id; "" at the root level.
		field.String("parent_id").Default("").Immutable(),
		// Fractional ordering key among siblings (internal/position).
		field.String("position").Immutable(),
		// document, group or link.
		field.String("type").Default("document").Immutable(),
		field.String("title").Default("").Immutable(),
		field.String("slug").Default("").Immutable(),
		field.String("emoji").Default("").Immutable(),
		field.String("description").Default("").Immutable(),
		field.Bool("hidden").Default(false).Immutable(),
		field.JSON("layout", map[string]any{}).Optional().Immutable(),
		field.JSON("cover", map[string]any{}).Optional().Immutable(),
		field.JSON("variables", map[string]any{}).Optional().Immutable(),
		// Shorter title the navigation shows ("": the title).
		field.String("link_title").Default("").Immutable(),
		// Name of the page's icon ("": none).
		field.String("icon").Default("").Immutable(),
		// Kept out of search, and robots asked not to index it.
		field.Bool("no_index").Default(false).Immutable(),
		field.Bool("no_robots_index").Default(false).Immutable(),
		// Canonical and alternate locations declared to search engines.
		field.JSON("meta_links", &types.PageMetaLinks{}).Optional().Immutable(),
		// Definition of a computed document page (which has no document of
		// its own) and the seed of its generated ids, a hash of it.
		field.JSON("computed", &types.PageComputed{}).Optional().Immutable(),
		field.String("computed_seed").Default("").Immutable(),
		// When the page's first version was written: every later version of
		// the page carries it (nil for pages written before it was kept).
		field.Time("page_created_at").Optional().Nillable().Immutable(),
		// Content blob (document JSON) of document pages.
		field.String("document_id").Optional().Nillable().Immutable(),
		// Target of link pages.
		field.JSON("link", &document.ContentRef{}).Optional().Immutable(),
		// Fingerprints compared by the three-way merge: the content (document
		// link target or computed definition) and the other properties
		// (type, slug, emoji, description, hidden, layout, cover, variables,
		// link title, icon, indexing, meta links).
		field.String("content_hash").Default("").Immutable(),
		field.String("meta_hash").Default("").Immutable(),
		// References found in the document (links, content-refs, files,
		// images...), each a content reference plus "node" and "text".
		field.JSON("refs", []map[string]string{}).Optional().Immutable(),
		// Heading anchors of the document.
		field.JSON("anchors", []string{}).Optional().Immutable(),
		// The Git blob the page was imported from (or exported to), if any.
		field.JSON("git", &types.GitBlob{}).Optional().Immutable(),
		field.Time("created_at").Default(nowUTC).Immutable(),
	}
}

// Indexes of the PageVersion.
func (PageVersion) Indexes() []ent.Index {
	return []ent.Index{index.Fields("space_id"), index.Fields("document_id")}
}
