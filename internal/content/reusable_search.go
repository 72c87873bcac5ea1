package content

import (
	"context"
	"strings"

	"quire/ent"
	"quire/internal/document"
)

// The search index reads each page with the reusable contents it embeds
// inlined, so that a page is found by their text. A page's document name
// (search.Page.Document, which the index compares to know what changed)
// carries, when the space has reusable contents, a fingerprint of all of
// them: changing one reindexes the space's document pages, as the index
// cannot tell which pages embed it without reading them.

// reusablesFingerprint names the versions of a state's reusable contents
// ("" when it has none).
func reusablesFingerprint(st *state) string {
	if len(st.reusables) == 0 {
		return ""
	}
	var b strings.Builder
	for _, id := range sortedKeys(st.reusables) {
		b.WriteString(st.reusables[id].ID)
	}
	return hashBytes([]byte(b.String()))
}

// searchDocument is the document name of a page version for the index.
func searchDocument(v *ent.PageVersion, fingerprint string) string {
	switch {
	case v.DocumentID == nil:
		return ""
	case fingerprint == "":
		return *v.DocumentID
	}
	return *v.DocumentID + "+" + fingerprint
}

// storedNames returns the blob hashes of document names.
func storedNames(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i], _, _ = strings.Cut(n, "+")
	}
	return out
}

// inlineForSearch returns the documents of names (byHash holds them by
// hash) with the reusable contents of st they embed inlined, as
// Dereference does.
func inlineForSearch(ctx context.Context, c *ent.Client, st *state, names []string, byHash map[string]*document.Document) (map[string]*document.Document, error) {
	out := make(map[string]*document.Document, len(names))
	var reusables map[string]*document.Document // reusable content id → document, read when first needed
	for _, name := range names {
		h, _, _ := strings.Cut(name, "+")
		doc := byHash[h]
		if doc == nil {
			continue
		}
		if st == nil || len(st.reusables) == 0 || len(embeddedReusables(doc.Nodes, "")) == 0 {
			out[name] = doc
			continue
		}
		if reusables == nil {
			var hashes []string
			for _, v := range st.reusables {
				hashes = append(hashes, v.DocumentID)
			}
			docs, err := storedDocuments(c)(ctx, uniq(hashes))
			if err != nil {
				return nil, err
			}
			reusables = make(map[string]*document.Document, len(st.reusables))
			for id, v := range st.reusables {
				reusables[id] = docs[v.DocumentID]
			}
		}
		inlined := *doc
		inlined.Nodes = inline(doc.Nodes, "", reusables, nil)
		out[name] = &inlined
	}
	return out, nil
}
