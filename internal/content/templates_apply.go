package content

import (
	"context"
	"fmt"
	"strings"

	"quire/ent"
	"quire/internal/apierr"
	"quire/internal/document"
	"quire/internal/types"
)

// ApplyTemplate adds the pages of a built-in template (see Templates) with
// the given params: in the change request changeRequestID as one edit (one
// new revision of the change request, see Edit), or, when changeRequestID
// is "", directly in the space's current content (see EditSpace). A param
// naming a user, space or page the caller may not see is refused as one
// naming nothing (see checkTemplateTargets).
// Errors: BadRequest (field id: unknown template; field
// params.contentRefs.<name>: unknown, missing or invalid param, or one
// naming nothing the caller may see; a merged or archived change request),
// NotFound (space; change request, or one that is not in spaceID),
// Forbidden (no edit rights on the space; locked space),
// PreconditionFailed (deleted space).
func (s *Service) ApplyTemplate(ctx context.Context, spaceID, changeRequestID, templateID string, refs map[string]document.ContentRef) error {
	sp, err := s.SpaceFor(ctx, spaceID, types.RoleEdit)
	if err != nil {
		return err
	}
	t, params, err := parseTemplate(templateID, refs)
	if err != nil {
		return err
	}
	target := sp.RevisionID
	var cr *ent.ChangeRequest
	if changeRequestID != "" {
		if cr, err = s.ChangeRequest(ctx, changeRequestID); err != nil {
			return err
		}
		if cr.SpaceID != spaceID {
			return apierr.NotFoundf("No matching change request found for id %q in space %q", changeRequestID, spaceID)
		}
		target = cr.RevisionID
	}
	ops, err := s.templateOps(ctx, target, t, params)
	if err != nil {
		return err
	}
	if cr == nil {
		_, err := s.EditSpace(ctx, spaceID, ops...)
		return err
	}
	_, err = s.Edit(ctx, cr.ID, ops...)
	return err
}

// templateRun is one application of a template: the ids of the pages
// created so far, by key.
type templateRun struct {
	ids map[string]string
}

// templateOp creates one page of a template. Pages are created in the
// template's order, parents first. A page whose content links to a page
// created after it (a parent to its children) is created empty, and its
// content is set by the templateFill op that ends the run.
type templateOp struct {
	run  *templateRun
	page templatePage
	doc  *document.Document
	link *document.ContentRef
	// deferred: the content is set by templateFill.
	deferred bool
}

func (o *templateOp) apply(e *editor) (string, error) {
	c := &CreatePage{Type: o.page.typ, Title: o.page.title, Emoji: o.page.emoji,
		Description: o.page.description, Link: o.link}
	if o.page.parent != "" {
		if c.Parent = o.run.ids[o.page.parent]; c.Parent == "" {
			return "", fmt.Errorf("template page %s: parent %s is not created yet", o.page.key, o.page.parent)
		}
	}
	if o.doc != nil && !o.deferred {
		if err := o.run.resolvePages(o.page.key, o.doc); err != nil {
			return "", err
		}
		c.Document = o.doc
	}
	id, err := c.apply(e)
	if err != nil {
		return "", err
	}
	o.run.ids[o.page.key] = id
	return id, nil
}

// resolvePages replaces the tpl-page: placeholders of doc with references
// to the pages created.
func (r *templateRun) resolvePages(key string, doc *document.Document) error {
	return resolveRefs(doc.Nodes, func(placeholder string) (*document.ContentRef, error) {
		to, ok := strings.CutPrefix(placeholder, pageScheme)
		if !ok {
			return nil, nil
		}
		id := r.ids[to]
		if id == "" {
			return nil, fmt.Errorf("template page %s: linked page %s is not created", key, to)
		}
		return &document.ContentRef{Kind: document.RefPage, Page: id}, nil
	})
}

// templateFill sets the content of the deferred pages of a run.
type templateFill struct {
	run   *templateRun
	pages []*templateOp
}

func (f *templateFill) apply(e *editor) (string, error) {
	for _, o := range f.pages {
		if err := f.run.resolvePages(o.page.key, o.doc); err != nil {
			return "", err
		}
		u := &UpdatePage{Page: f.run.ids[o.page.key], Document: o.doc}
		if _, err := u.apply(e); err != nil {
			return "", err
		}
	}
	// The empty documents the pages were created with are no longer used.
	used := map[string]bool{}
	p := e.pendingFor()
	for _, v := range p.pages {
		if v.DocumentID != nil {
			used[*v.DocumentID] = true
		}
	}
	for _, v := range p.files {
		used[v.BlobID] = true
	}
	for h := range e.blobs.blobs {
		if !used[h] {
			delete(e.blobs.blobs, h)
		}
	}
	return "", nil
}

// resolveRefs replaces the placeholder url references of nodes (and their
// children and fragments) with what sub returns for them (nil: keep).
func resolveRefs(nodes []document.Node, sub func(placeholder string) (*document.ContentRef, error)) error {
	for i := range nodes {
		n := &nodes[i]
		if r, ok := n.Ref(); ok && r.Kind == document.RefURL {
			to, err := sub(r.URL)
			if err != nil {
				return err
			}
			if to != nil {
				n.Data["ref"] = to.Map()
			}
		}
		if err := resolveRefs(n.Nodes, sub); err != nil {
			return err
		}
		if err := resolveRefs(n.Fragments, sub); err != nil {
			return err
		}
	}
	return nil
}

// ops builds the ops that create the template's pages with the given
// (checked) params.
func (t Template) ops(params map[string]document.ContentRef) ([]Op, error) {
	given := make(map[string]bool, len(t.Params))
	for _, p := range t.Params {
		_, given[p.Name] = params[p.Name]
	}
	run := &templateRun{ids: map[string]string{}}
	created := map[string]bool{}
	var (
		ops  []Op
		fill = &templateFill{run: run}
	)
	for _, p := range t.pages {
		if p.needs != "" && !given[p.needs] {
			continue
		}
		if p.parent != "" && !created[p.parent] {
			return nil, fmt.Errorf("page %s: parent %s is not created before it", p.key, p.parent)
		}
		op := &templateOp{run: run, page: p}
		switch p.typ {
		case TypeLink:
			r, ok := params[p.link]
			if !ok {
				return nil, fmt.Errorf("link page %s: param %s is not given", p.key, p.link)
			}
			op.link = &r
		case TypeGroup:
		default:
			doc, links, err := renderPage(p, given, params)
			if err != nil {
				return nil, err
			}
			op.doc = doc
			for _, k := range links {
				if !created[k] {
					op.deferred = true
				}
			}
			if op.deferred {
				fill.pages = append(fill.pages, op)
			}
		}
		created[p.key] = true
		ops = append(ops, op)
	}
	for _, o := range fill.pages {
		for _, k := range pageLinks(o.doc) {
			if !created[k] {
				return nil, fmt.Errorf("page %s: links to page %s, which is left out", o.page.key, k)
			}
		}
	}
	if len(fill.pages) > 0 {
		ops = append(ops, fill)
	}
	return ops, nil
}

// renderPage renders the body of a document page into a document, with
// the params' references in place, and lists the keys of the template
// pages it links to.
func renderPage(p templatePage, given map[string]bool, params map[string]document.ContentRef) (*document.Document, []string, error) {
	md, err := renderBody(p, given)
	if err != nil {
		return nil, nil, err
	}
	doc, err := document.FromMarkdown(md)
	if err != nil {
		return nil, nil, fmt.Errorf("page %s: %w", p.key, err)
	}
	err = resolveRefs(doc.Nodes, func(placeholder string) (*document.ContentRef, error) {
		name, ok := strings.CutPrefix(placeholder, paramScheme)
		if !ok {
			return nil, nil
		}
		r, ok := params[name]
		if !ok {
			return nil, fmt.Errorf("page %s: param %s is used but not given", p.key, name)
		}
		return &r, nil
	})
	if err != nil {
		return nil, nil, err
	}
	return doc, pageLinks(doc), nil
}

// pageLinks lists the keys of the tpl-page: placeholders of doc.
func pageLinks(doc *document.Document) []string {
	var keys []string
	_ = resolveRefs(doc.Nodes, func(placeholder string) (*document.ContentRef, error) {
		if k, ok := strings.CutPrefix(placeholder, pageScheme); ok {
			keys = append(keys, k)
		}
		return nil, nil
	})
	return keys
}

func renderBody(p templatePage, given map[string]bool) (string, error) {
	if p.tpl == nil {
		return "", nil
	}
	var b strings.Builder
	if err := p.tpl.Execute(&b, given); err != nil {
		return "", fmt.Errorf("page %s: %w", p.key, err)
	}
	return b.String(), nil
}
