package content

import (
	"encoding/json"
	"strings"

	"quire/ent"
	"quire/internal/document"
)

// contentHash fingerprints what the merge calls a page's content: its
// document, or the target of a link page.
func contentHash(v *ent.PageVersion) string {
	switch {
	case v.DocumentID != nil:
		return "d:" + *v.DocumentID
	case v.Link != nil:
		b, _ := json.Marshal(v.Link.Map())
		return "l:" + hashBytes(b)
	case v.Computed != nil:
		// A computed page's content is what its definition generates.
		return "c:" + computedSeed(v.Computed)
	}
	return ""
}

// metaHash fingerprints the other properties of a page (the merge compares
// title, location and content separately): with link title, icon,
// indexing and meta links appended only when one is set.
func metaHash(v *ent.PageVersion) string {
	props := []any{v.Type, v.Slug, v.Emoji, v.Description, v.Hidden, v.Layout, v.Cover, v.Variables}
	if x := extraMeta(v); x != nil {
		props = append(props, x)
	}
	b, _ := json.Marshal(props)
	return hashBytes(b)
}

// seal computes a version's fingerprints.
func seal(v *ent.PageVersion) {
	v.ContentHash = contentHash(v)
	v.MetaHash = metaHash(v)
}

// refNodes are the node types whose data.ref (and, for images, refDark) is
// reported by links and backlinks.
var refNodes = map[string]bool{
	document.InlineLink: true, document.BlockContentRef: true, document.InlineMention: true,
	document.InlineButton: true, document.BlockFile: true, document.BlockImage: true,
	document.InlineImage: true, document.BlockDrawing: true, document.BlockSwagger: true,
	document.BlockOpenAPIOperation: true, document.BlockOpenAPISchemas: true, document.BlockOpenAPIWebhook: true,
	document.BlockReusableContent: true,
}

// scanDocument extracts the references and heading anchors of a document.
func scanDocument(d *document.Document) (refs []map[string]string, anchors []string) {
	var walk func(nodes []document.Node)
	walk = func(nodes []document.Node) {
		for i := range nodes {
			n := &nodes[i]
			if refNodes[n.Type] && (n.Object == document.ObjectBlock || n.Object == document.ObjectInline) {
				for _, key := range []string{"ref", "refDark"} {
					r, ok := refAt(n, key)
					if !ok {
						continue
					}
					m := map[string]string{"node": n.Type}
					for k, v := range r.Map() {
						m[k], _ = v.(string)
					}
					if n.Type == document.InlineLink {
						m["text"] = inlineText(n.Nodes)
					}
					refs = append(refs, m)
				}
			}
			if document.IsHeading(n) {
				if a := document.HeadingAnchor(n); a != "" {
					anchors = append(anchors, a)
				}
			}
			walk(n.Nodes)
			walk(n.Fragments)
		}
	}
	walk(d.Nodes)
	return refs, anchors
}

func refAt(n *document.Node, key string) (document.ContentRef, bool) {
	if key == "ref" {
		return n.Ref()
	}
	if n.Data == nil || n.Data[key] == nil {
		return document.ContentRef{}, false
	}
	tmp := document.Node{Data: map[string]any{"ref": n.Data[key]}}
	return tmp.Ref()
}

// refFromMap is the inverse of the maps stored in PageVersion.refs.
func refFromMap(m map[string]string) document.ContentRef {
	return document.ContentRef{
		Kind: m["kind"], URL: m["url"], File: m["file"], Page: m["page"], Anchor: m["anchor"],
		Space: m["space"], User: m["user"], Collection: m["collection"],
		ReusableContent: m["reusableContent"], Spec: m["spec"],
	}
}

func inlineText(nodes []document.Node) string {
	var b strings.Builder
	var walk func(nodes []document.Node)
	walk = func(nodes []document.Node) {
		for i := range nodes {
			n := &nodes[i]
			for _, l := range n.Leaves {
				b.WriteString(l.Text)
			}
			walk(n.Nodes)
		}
	}
	walk(nodes)
	return b.String()
}

// slugify turns a title into a URL segment: lower case letters and digits
// separated by single hyphens, at most MaxSlug characters.
func slugify(s string) string { return document.Slug(s, MaxSlug) }

// validSlug reports whether s is a slug as slugify writes them.
func validSlug(s string) bool {
	return s != "" && slugify(s) == s
}
