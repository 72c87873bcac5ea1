package graph

import (
	"context"
	"fmt"
	"sync"

	"github.com/graph-gophers/dataloader/v7"

	"quire/ent"
	"quire/graph/model"
	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/evaluate"
	"quire/internal/loaders"
)

// linkReport filters links by status and counts them.
func linkReport(links []content.Link, status *model.ContentReferenceStatus) *model.ContentLinkReport {
	out := &model.ContentLinkReport{Items: []*content.Link{}, Stats: &model.ContentLinkStats{}}
	for i := range links {
		l := &links[i]
		switch l.Status {
		case content.LinkOK:
			out.Stats.Ok++
		case content.LinkBroken:
			out.Stats.Broken++
		case content.LinkInApp:
			out.Stats.InApp++
		}
		out.Stats.Total++
		if status != nil && restEnum(*status) != l.Status {
			continue
		}
		out.Items = append(out.Items, l)
	}
	return out
}

// documentLoader loads the documents of page versions for the request, a
// batch of versions per two statements.
func (r *Resolver) documentLoader(ctx context.Context) *dataloader.Loader[string, *document.Document] {
	return loaders.Keep(loaders.For(ctx), "content.documents", func() *dataloader.Loader[string, *document.Document] {
		return dataloader.NewBatchedLoader(func(ctx context.Context, keys []string) []*dataloader.Result[*document.Document] {
			docs, err := r.Content.Documents(ctx, keys)
			out := make([]*dataloader.Result[*document.Document], len(keys))
			for i, k := range keys {
				if err != nil {
					out[i] = &dataloader.Result[*document.Document]{Error: err}
				} else {
					out[i] = &dataloader.Result[*document.Document]{Data: docs[k]}
				}
			}
			return out
		}, dataloader.WithWait[string, *document.Document](loaders.Wait))
	})
}

// revisionRowLoader caches revision rows (for their variables) per request.
func (r *Resolver) revisionRow(ctx context.Context, id string) (*ent.Revision, error) {
	l := loaders.Keep(loaders.For(ctx), "content.revisionRows", func() *dataloader.Loader[string, *ent.Revision] {
		return dataloader.NewBatchedLoader(func(ctx context.Context, keys []string) []*dataloader.Result[*ent.Revision] {
			out := make([]*dataloader.Result[*ent.Revision], len(keys))
			for i, k := range keys {
				row, err := r.Content.RevisionRow(ctx, k)
				out[i] = &dataloader.Result[*ent.Revision]{Data: row, Error: err}
			}
			return out
		}, dataloader.WithWait[string, *ent.Revision](loaders.Wait))
	})
	return l.Load(ctx, id)()
}

// pageDocument returns a document page's content, evaluated as asked: for
// a computed page, the document it generates unless computed is false;
// with dereferenced, the reusable contents it embeds inlined (before the
// evaluation, so that their expressions are evaluated too).
func (r *Resolver) pageDocument(ctx context.Context, p *content.Page, mode *model.PageEvaluation, computed, dereferenced *bool) (*document.Document, error) {
	if p.Type != content.TypeDocument {
		return nil, nil
	}
	doc, generated, err := r.storedOrComputed(ctx, p, computed)
	if err != nil {
		return nil, err
	}
	if !generated {
		doc = p.Document
	}
	if doc == nil && !generated {
		if doc, err = r.documentLoader(ctx).Load(ctx, p.Version)(); err != nil {
			return nil, err
		}
	}
	if doc == nil {
		doc = &document.Document{Data: map[string]any{}, Nodes: []document.Node{}}
	}
	if dereferenced != nil && *dereferenced {
		if doc, err = r.Content.Dereference(ctx, p.Revision, doc); err != nil {
			return nil, err
		}
	}
	if mode == nil || *mode == model.PageEvaluationNone {
		return doc, nil
	}
	row, err := r.revisionRow(ctx, p.Revision)
	if err != nil {
		return nil, err
	}
	m := evaluate.All
	if *mode == model.PageEvaluationDeterministicOnly {
		m = evaluate.DeterministicOnly
	}
	return evaluate.Document(doc, evaluate.Env{Space: row.Variables, Page: p.Variables}, m)
}

// defaultLayout is the layout of a page that has not set one.
var defaultLayout = model.PageLayout{
	Width: "default", Cover: true, CoverSize: "hero", Title: true, Description: true,
	TableOfContents: true, Outline: true, Pagination: true, Metadata: true,
}

func pageLayout(m map[string]any) *model.PageLayout {
	l := defaultLayout
	str := func(k string, dst *string) {
		if v, ok := m[k].(string); ok {
			*dst = v
		}
	}
	boolean := func(k string, dst *bool) {
		if v, ok := m[k].(bool); ok {
			*dst = v
		}
	}
	str("width", &l.Width)
	str("coverSize", &l.CoverSize)
	boolean("cover", &l.Cover)
	boolean("title", &l.Title)
	boolean("description", &l.Description)
	boolean("tableOfContents", &l.TableOfContents)
	boolean("outline", &l.Outline)
	boolean("pagination", &l.Pagination)
	boolean("metadata", &l.Metadata)
	return &l
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// pdfTitle is the title of a change request's PDF.
func pdfTitle(cr *ent.ChangeRequest) string {
	if cr.Subject != "" {
		return cr.Subject
	}
	return fmt.Sprintf("Change request #%d", cr.Number)
}

// revisionLinks resolves every link of a revision once per request, so that
// the links and backlinks of many pages cost one read.
func (r *Resolver) revisionLinks(ctx context.Context, revisionID string) ([]content.Link, error) {
	type once struct {
		sync.Once
		links []content.Link
		err   error
	}
	o := loaders.Keep(loaders.For(ctx), "content.links."+revisionID, func() *once { return &once{} })
	o.Do(func() { o.links, o.err = r.Content.Links(ctx, revisionID, nil) })
	return o.links, o.err
}

// pageLinks are the links held by one page of a revision.
func (r *Resolver) pageLinks(ctx context.Context, p *content.Page) ([]content.Link, error) {
	all, err := r.revisionLinks(ctx, p.Revision)
	if err != nil {
		return nil, err
	}
	var out []content.Link
	for _, l := range all {
		if l.Page == p.ID {
			out = append(out, l)
		}
	}
	return out, nil
}

// backlinks are the links of a revision that point at a page or a file of
// it (kind "page" or "file").
func (r *Resolver) backlinks(ctx context.Context, revisionID, spaceID, kind, id string) ([]*content.Link, error) {
	all, err := r.revisionLinks(ctx, revisionID)
	if err != nil {
		return nil, err
	}
	out := []*content.Link{}
	for i := range all {
		ref := all[i].Ref
		sameSpace := ref.Space == "" || ref.Space == spaceID
		switch {
		case kind == "page" && sameSpace && (ref.Kind == document.RefPage || ref.Kind == document.RefAnchor) && ref.Page == id,
			kind == "file" && ref.Kind == document.RefFile && ref.File == id:
			out = append(out, &all[i])
		}
	}
	return out, nil
}
