package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"quire/graph"
	"quire/graph/model"
	"quire/internal/types"
)

// The presenters of revisions, pages and files.

func (a *API) revisions() *Kind[*graph.Revision, *Revision] {
	return presentsContent(a.presentRevision, func(r *Revision) {
		r.Git = nil
		stripPages(r.Pages)
		for _, f := range r.Files {
			f.Git = nil
		}
		for i := range r.ReusableContents {
			r.ReusableContents[i].Git = nil
		}
	})
}

func (a *API) files() *Kind[*graph.ContentFile, *File] {
	return presentsContent(a.presentFile, func(f *File) { f.Git = nil })
}

// pageTrees present the page tree of a revision.
func (a *API) pageTrees() *Kind[[]*graph.ContentPage, *PageList] {
	return presentsContent(func(ctx context.Context, pages []*graph.ContentPage) (*PageList, error) {
		out, err := a.presentTree(ctx, pages)
		if err != nil {
			return nil, err
		}
		return &PageList{Pages: out}, nil
	}, func(l *PageList) { stripPages(l.Pages) })
}

// presentsContent makes a Kind of a content presenter whose Git metadata
// (mutable: it changes with every sync) is left out when the request asks
// for metadata=false.
func presentsContent[T, J any](one func(ctx context.Context, v T) (J, error), strip func(J)) *Kind[T, J] {
	return &Kind[T, J]{one: func(ctx context.Context, req *Request, v T) (J, error) {
		j, err := one(ctx, v)
		if err == nil && req.HTTP.URL.Query().Get("metadata") == "false" {
			strip(j)
		}
		return j, err
	}}
}

// stripPages leaves the Git metadata out of a page tree.
func stripPages(pages []*Page) {
	for _, p := range pages {
		p.Git = nil
		stripPages(p.Pages)
	}
}

// pageRead is a page read as its query asks: its content as a document
// (evaluated or not) or as Markdown.
type pageRead struct {
	page     *graph.ContentPage
	markdown bool
	eval     model.PageEvaluation
	computed bool
	// deref inlines the reusable contents the page embeds.
	deref bool
}

func (a *API) pageReads() *Kind[*pageRead, *Page] {
	return presentsContent(func(ctx context.Context, r *pageRead) (*Page, error) {
		out, err := a.presentPage(ctx, r.page)
		if err != nil || r.page.Type != graph.PageTypeDocument {
			return out, err
		}
		if r.markdown {
			md, err := a.r.Page().Markdown(ctx, r.page, &r.eval, &r.computed, &r.deref)
			if err != nil {
				return nil, err
			}
			if md == nil {
				md = new(string)
			}
			out.Markdown, out.Document = md, nil
			return out, nil
		}
		if out.Document, err = a.document(ctx, r.page, r.eval, r.computed, r.deref); err != nil {
			return nil, err
		}
		return out, nil
	}, func(p *Page) { stripPages([]*Page{p}) })
}

// Page is the documented revision page: a document page (kind "sheet"), a
// group or a link. Which fields appear depends on the type, as in the
// reference's RevisionPageDocument, RevisionPageGroup and RevisionPageLink.
type Page struct {
	ID          string          `json:"id"`
	Title       string          `json:"title"`
	Emoji       string          `json:"emoji,omitempty"`
	Kind        string          `json:"kind" enum:"sheet,group,link" doc:"Deprecated spelling of the type: sheet for document pages."`
	Type        string          `json:"type" enum:"document,group,link,computed"`
	URLs        *PageUrls       `json:"urls,omitempty"`
	Slug        string          `json:"slug,omitempty" doc:"The page's slug in its parent (document and group pages)."`
	Path        string          `json:"path,omitempty" doc:"Slugs of the ancestors and the page, joined by / (document and group pages)."`
	Description string          `json:"description,omitempty"`
	Pages       []*Page         `json:"pages,omitzero" doc:"Child pages in order (document and group pages)."`
	Layout      *PageLayout     `json:"layout,omitempty" doc:"Layout options of a document page, defaults filled in."`
	Cover       types.JSON      `json:"cover,omitempty" doc:"{ref?, refDark?, yPos, height?}"`
	Variables   types.JSON      `json:"variables,omitempty" doc:"Page variables: name to string, number or boolean."`
	Hidden      bool            `json:"hidden"`
	Target      types.JSON      `json:"target,omitempty" doc:"Target of a link page: a content reference."`
	Href        string          `json:"href,omitempty" doc:"URL of a link page whose target is a URL."`
	Document    json.RawMessage `json:"document,omitempty" doc:"Content of a document page (JSON document); on the page read, only with format=document."`
	Markdown    *string         `json:"markdown,omitempty" doc:"Content of a document page as Markdown, on the page read with format=markdown."`
	Git         *GitSyncBlob    `json:"git,omitempty" doc:"Where the page came from in a Git repository (left out with metadata=false)."`
	LinkTitle   string          `json:"linkTitle,omitempty" doc:"Shorter title the navigation shows."`
	Icon        string          `json:"icon,omitempty" doc:"Name of the page's icon."`
	CreatedAt   *time.Time      `json:"createdAt,omitempty" doc:"When the page was first written."`
	UpdatedAt   *time.Time      `json:"updatedAt,omitempty" doc:"When the page last changed."`
	// Indexing flags of document and group pages.
	NoIndex       *bool          `json:"noIndex,omitempty" doc:"The page is left out of search (document and group pages)."`
	NoRobotsIndex *bool          `json:"noRobotsIndex,omitempty" doc:"Search engine robots are asked not to index the page (document and group pages)."`
	MetaLinks     *PageMetaLinks `json:"metaLinks,omitempty" doc:"Locations declared to search engines (document pages)."`
	Computed      types.JSON     `json:"computed,omitempty" doc:"Definition of a computed document page: {type, dependencies, props}."`
	ComputedSeed  string         `json:"computedSeed,omitempty" doc:"Seed of the ids of a computed page's generated content."`
}

// GitSyncBlob is a file of a Git commit.
type GitSyncBlob struct {
	OID  string `json:"oid"`
	Path string `json:"path"`
}

// GitSyncCommit is a Git commit a revision was imported from.
type GitSyncCommit struct {
	OID              string `json:"oid"`
	Message          string `json:"message"`
	CreatedByService bool   `json:"createdByService" doc:"True when the commit was written by an export of Quire's."`
	URL              string `json:"url,omitempty" doc:"The commit's URL at the provider."`
	Ref              string `json:"ref,omitempty" doc:"The ref the commit was read from."`
}

func gitBlob(g *types.GitBlob) *GitSyncBlob {
	if g == nil {
		return nil
	}
	return &GitSyncBlob{OID: g.OID, Path: g.Path}
}

// File is the documented revision file.
type File struct {
	ID          string          `json:"id"`
	Name        string          `json:"name"`
	ContentType string          `json:"contentType"`
	DownloadURL string          `json:"downloadURL" doc:"Signed link to the file's bytes; it expires."`
	Size        int64           `json:"size"`
	Dimensions  *FileDimensions `json:"dimensions,omitempty" doc:"Width and height of an image, when they could be read."`
	Git         *GitSyncBlob    `json:"git,omitempty" doc:"Where the file came from in a Git repository (left out with metadata=false)."`
}

// ReusableContent is the documented revision reusable content.
type ReusableContent struct {
	ID       string       `json:"id"`
	Title    string       `json:"title"`
	Document string       `json:"document" doc:"Id of its document (the SHA-256 of its content): equal ids mean equal documents."`
	Git      *GitSyncBlob `json:"git,omitempty" doc:"Where it came from in a Git repository (left out with metadata=false)."`
}

// Revision is the documented revision.
type Revision struct {
	Object           string            `json:"object" enum:"revision"`
	ID               string            `json:"id"`
	Type             string            `json:"type" enum:"initial,edits,merge,update,rollback,computed"`
	Parents          []string          `json:"parents"`
	Pages            []*Page           `json:"pages"`
	Files            []*File           `json:"files"`
	ReusableContents []ReusableContent `json:"reusableContents"`
	Variables        types.JSON        `json:"variables" doc:"Space variables: name to string, number or boolean."`
	CreatedAt        time.Time         `json:"createdAt"`
	MergedFrom       *ChangeRequest    `json:"mergedFrom,omitempty" doc:"The change request a merge revision merged."`
	URLs             *RevisionUrls     `json:"urls"`
	Git              *GitSyncCommit    `json:"git,omitempty" doc:"The Git commit the revision was imported from (left out with metadata=false)."`
}

// PageList is the body of the page tree reads.
type PageList struct {
	Pages []*Page `json:"pages"`
}

// isNull reports an absent or JSON null value.
func isNull(j types.JSON) bool {
	t := bytes.TrimSpace(j)
	return len(t) == 0 || string(t) == "null"
}

func nonNull(j types.JSON) types.JSON {
	if isNull(j) {
		return nil
	}
	return j
}

var pageKinds = map[string]string{graph.PageTypeDocument: "sheet", graph.PageTypeGroup: "group", graph.PageTypeLink: "link"}

// presentTree presents pages with their children. Document pages carry
// their JSON document, as the reference's RevisionPageDocument requires
// one; the documents of the whole tree are loaded together.
func (a *API) presentTree(ctx context.Context, pages []*graph.ContentPage) ([]*Page, error) {
	docs, err := a.documents(ctx, pages)
	if err != nil {
		return nil, err
	}
	return presentAll(ctx, pages, a.pageWith(docs))
}

// presentPage presents one page with its children.
func (a *API) presentPage(ctx context.Context, p *graph.ContentPage) (*Page, error) {
	out, err := a.presentTree(ctx, []*graph.ContentPage{p})
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// documents loads the documents of the document pages of a tree, all at
// once so that the loader batches them.
func (a *API) documents(ctx context.Context, pages []*graph.ContentPage) (map[string]json.RawMessage, error) {
	var list []*graph.ContentPage
	graph.WalkPages(pages, func(p *graph.ContentPage) {
		if p.Type == graph.PageTypeDocument {
			list = append(list, p)
		}
	})
	raws := make([]json.RawMessage, len(list))
	errs := make([]error, len(list))
	var wg sync.WaitGroup
	for i, p := range list {
		wg.Add(1)
		go func() {
			defer wg.Done()
			raws[i], errs[i] = a.document(ctx, p, model.PageEvaluationNone, false, false)
		}()
	}
	wg.Wait()
	out := make(map[string]json.RawMessage, len(list))
	for i, p := range list {
		if errs[i] != nil {
			return nil, errs[i]
		}
		out[p.ID] = raws[i]
	}
	return out, nil
}

// emptyDocument is the document of a page without content.
var emptyDocument = json.RawMessage(`{"object":"document","data":{},"nodes":[]}`)

// document returns the JSON document of a document page: for a computed
// page, the document it generates when computed is true; with deref, the
// reusable contents it embeds inlined.
func (a *API) document(ctx context.Context, p *graph.ContentPage, eval model.PageEvaluation, computed, deref bool) (json.RawMessage, error) {
	doc, err := a.r.Page().Document(ctx, p, &eval, &computed, &deref)
	if err != nil {
		return nil, err
	}
	if doc == nil || doc.D == nil {
		return emptyDocument, nil
	}
	raw, err := json.Marshal(doc.D)
	if err != nil {
		return nil, fmt.Errorf("encode document of page %s: %w", p.ID, err)
	}
	return raw, nil
}

func (a *API) pageWith(docs map[string]json.RawMessage) func(context.Context, *graph.ContentPage) (*Page, error) {
	var present func(context.Context, *graph.ContentPage) (*Page, error)
	present = func(ctx context.Context, p *graph.ContentPage) (*Page, error) {
		out, err := a.pageFields(ctx, p)
		if err != nil || p.Type == graph.PageTypeLink {
			return out, err
		}
		if p.Type == graph.PageTypeDocument {
			out.Document = docs[p.ID]
		}
		if out.Pages, err = presentAll(ctx, p.Pages, present); err != nil {
			return nil, err
		}
		return out, nil
	}
	return present
}

// pageFields presents a page without its children and content.
func (a *API) pageFields(ctx context.Context, p *graph.ContentPage) (*Page, error) {
	pr := a.r.Page()
	out := &Page{ID: p.ID, Title: p.Title, Emoji: p.Emoji, Kind: pageKinds[p.Type], Type: p.Type, Hidden: p.Hidden, Git: gitBlob(p.Git)}
	if out.Kind == "" {
		out.Kind = p.Type
	}
	if err := a.pageProps(ctx, out, p); err != nil {
		return nil, err
	}
	switch p.Type {
	case graph.PageTypeLink:
		target, err := pr.Target(ctx, p)
		if err != nil {
			return nil, err
		}
		out.Target = nonNull(target)
		if p.Link != nil && p.Link.Kind == graph.RefKindURL {
			out.Href = p.Link.URL
		}
		if out.Target == nil {
			out.Target = types.JSON("{}")
		}
		return out, nil
	case graph.PageTypeDocument:
		urls, err := pr.Urls(ctx, p)
		if err != nil {
			return nil, err
		}
		layout, err := pr.Layout(ctx, p)
		if err != nil {
			return nil, err
		}
		cover, err := pr.Cover(ctx, p)
		if err != nil {
			return nil, err
		}
		vars, err := pr.Variables(ctx, p)
		if err != nil {
			return nil, err
		}
		out.URLs, out.Layout, out.Cover, out.Variables = pageUrls(urls), pageLayout(layout), nonNull(cover), nonNull(vars)
		out.Description = p.Description
	}
	out.Slug, out.Path = p.Slug, p.Path
	return out, nil
}

// presentFile presents a file with a fresh download link.
func (a *API) presentFile(ctx context.Context, f *graph.ContentFile) (*File, error) {
	fr := a.r.File()
	url, err := fr.DownloadURL(ctx, f)
	if err != nil {
		return nil, err
	}
	dims, err := fr.Dimensions(ctx, f)
	if err != nil {
		return nil, err
	}
	return &File{ID: f.ID, Name: f.Name, ContentType: f.ContentType, DownloadURL: url, Size: f.Size, Dimensions: fileDimensions(dims), Git: gitBlob(f.Git)}, nil
}

// presentRevision presents a revision with its page tree and files.
func (a *API) presentRevision(ctx context.Context, rev *graph.Revision) (*Revision, error) {
	rr := a.r.Revision()
	pages, err := a.presentTree(ctx, rev.Pages)
	if err != nil {
		return nil, err
	}
	files, err := presentAll(ctx, rev.Files, a.presentFile)
	if err != nil {
		return nil, err
	}
	vars, err := rr.Variables(ctx, rev)
	if err != nil {
		return nil, err
	}
	if isNull(vars) {
		vars = types.JSON("{}")
	}
	urls, err := present(revisionUrls)(rr.Urls(ctx, rev))
	if err != nil {
		return nil, err
	}
	typ, err := rr.Type(ctx, rev)
	if err != nil {
		return nil, err
	}
	parents := rev.Parents
	if parents == nil {
		parents = []string{}
	}
	out := &Revision{
		Object: "revision", ID: rev.ID, Type: string(typ), Parents: parents, Pages: pages, Files: files,
		ReusableContents: reusableList(rev.ReusableContents), Variables: vars, CreatedAt: rev.CreatedAt.UTC(), URLs: urls,
	}
	if g := rev.Git; g != nil {
		out.Git = &GitSyncCommit{OID: g.OID, Message: g.Message, CreatedByService: g.CreatedByService, URL: g.URL, Ref: g.Ref}
	}
	if typ == model.RevisionTypeMerge {
		cr, err := rr.ChangeRequest(ctx, rev)
		if err != nil {
			return nil, err
		}
		if cr != nil {
			if out.MergedFrom, err = a.presentChangeRequest(ctx, cr); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}
