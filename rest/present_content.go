package rest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"quire/ent"
	"quire/graph/model"
	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/types"
)

// Page is the documented revision page: a document page (kind "sheet"), a
// group or a link. Which fields appear depends on the type, as in the
// reference's RevisionPageDocument, RevisionPageGroup and RevisionPageLink.
type Page struct {
	ID          string            `json:"id"`
	Title       string            `json:"title"`
	Emoji       string            `json:"emoji,omitempty"`
	Kind        string            `json:"kind" enum:"sheet,group,link" doc:"Deprecated spelling of the type: sheet for document pages."`
	Type        string            `json:"type" enum:"document,group,link,computed"`
	URLs        *model.PageUrls   `json:"urls,omitempty"`
	Slug        string            `json:"slug,omitempty" doc:"The page's slug in its parent (document and group pages)."`
	Path        string            `json:"path,omitempty" doc:"Slugs of the ancestors and the page, joined by / (document and group pages)."`
	Description string            `json:"description,omitempty"`
	Pages       []*Page           `json:"pages,omitzero" doc:"Child pages in order (document and group pages)."`
	Layout      *model.PageLayout `json:"layout,omitempty" doc:"Layout options of a document page, defaults filled in."`
	Cover       types.JSON        `json:"cover,omitempty" doc:"{ref?, refDark?, yPos, height?}"`
	Variables   types.JSON        `json:"variables,omitempty" doc:"Page variables: name to string, number or boolean."`
	Hidden      bool              `json:"hidden"`
	Target      types.JSON        `json:"target,omitempty" doc:"Target of a link page: a content reference."`
	Href        string            `json:"href,omitempty" doc:"URL of a link page whose target is a URL."`
	Document    json.RawMessage   `json:"document,omitempty" doc:"Content of a document page (JSON document); on the page read, only with format=document."`
	Markdown    *string           `json:"markdown,omitempty" doc:"Content of a document page as Markdown, on the page read with format=markdown."`
}

// File is the documented revision file.
type File struct {
	ID          string                `json:"id"`
	Name        string                `json:"name"`
	ContentType string                `json:"contentType"`
	DownloadURL string                `json:"downloadURL" doc:"Signed link to the file's bytes; it expires."`
	Size        int64                 `json:"size"`
	Dimensions  *model.FileDimensions `json:"dimensions,omitempty" doc:"Width and height of an image, when they could be read."`
}

// ReusableContent is an entry of a revision's reusable contents (Quire has
// none yet; the list is always empty).
type ReusableContent struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

// Revision is the documented revision.
type Revision struct {
	Object           string              `json:"object" enum:"revision"`
	ID               string              `json:"id"`
	Type             string              `json:"type" enum:"initial,edits,merge,update,rollback,computed"`
	Parents          []string            `json:"parents"`
	Pages            []*Page             `json:"pages"`
	Files            []*File             `json:"files"`
	ReusableContents []ReusableContent   `json:"reusableContents"`
	Variables        types.JSON          `json:"variables" doc:"Space variables: name to string, number or boolean."`
	CreatedAt        time.Time           `json:"createdAt"`
	MergedFrom       *ChangeRequest      `json:"mergedFrom,omitempty" doc:"The change request a merge revision merged."`
	URLs             *model.RevisionUrls `json:"urls"`
}

// PageList is the body of the page tree reads.
type PageList struct {
	Pages []*Page `json:"pages"`
}

// ChangeRequest is the documented change request.
type ChangeRequest struct {
	Object                 string                   `json:"object" enum:"change-request"`
	ID                     string                   `json:"id"`
	Number                 int                      `json:"number"`
	Status                 string                   `json:"status" enum:"draft,open,archived,merged"`
	Subject                string                   `json:"subject"`
	Description            json.RawMessage          `json:"description,omitempty" doc:"A JSON document."`
	CreatedBy              *User                    `json:"createdBy,omitempty"`
	CreatedAt              time.Time                `json:"createdAt"`
	UpdatedAt              time.Time                `json:"updatedAt"`
	Space                  string                   `json:"space"`
	Revision               string                   `json:"revision" doc:"The change request's current revision."`
	RevisionInitial        string                   `json:"revisionInitial" doc:"The space revision it started from."`
	RevisionMergedAncestor *string                  `json:"revisionMergedAncestor,omitempty" doc:"The space revision last brought in by an update."`
	RevisionMerged         *string                  `json:"revisionMerged,omitempty" doc:"The space revision its merge created."`
	Comments               int                      `json:"comments"`
	Outdated               bool                     `json:"outdated"`
	URLs                   *model.ChangeRequestUrls `json:"urls"`
}

// MergeResult is the body of merge and update.
type MergeResult struct {
	Revision string `json:"revision" doc:"The revision written; on conflicts, the change request's current revision."`
	Result   string `json:"result" enum:"merge,update,conflicts"`
	// Conflicts is a Quire extension: what clashed.
	Conflicts []*model.MergeConflict `json:"conflicts,omitempty" doc:"Quire extension: on conflicts, what clashes (kind page-title, page-content, page-position, page-deleted, file or variable)."`
}

// PDFURL is the body of the PDF read.
type PDFURL struct {
	URL string `json:"url" doc:"Signed link to the PDF; it expires."`
}

// ContentLocation is an absolute place in content: what a reference points
// at, or where it is found. Which fields appear depends on the kind.
type ContentLocation struct {
	Kind             string            `json:"kind" enum:"file,url,page,user,collection,space,reusable-content,openapi"`
	URL              string            `json:"url,omitempty"`
	Organization     *Organization     `json:"organization,omitempty"`
	Space            *Space            `json:"space,omitempty"`
	Page             *Page             `json:"page,omitempty"`
	File             *File             `json:"file,omitempty"`
	User             *User             `json:"user,omitempty"`
	Collection       *Collection       `json:"collection,omitempty"`
	VersionContext   *VersionContext   `json:"versionContext,omitempty" doc:"Set when the location is in a change request."`
	InternalLocation *InternalLocation `json:"internalLocation,omitempty"`
}

// VersionContext names the change request content a location is in.
type VersionContext struct {
	Type          string         `json:"type" enum:"changeRequest"`
	ChangeRequest *ChangeRequest `json:"changeRequest"`
}

// InternalLocation is a place inside a page.
type InternalLocation struct {
	Type   string `json:"type" enum:"anchor"`
	Anchor string `json:"anchor"`
}

// ContentReferenceUsage is one target of a link report with the pages
// referring to it.
type ContentReferenceUsage struct {
	Status             string            `json:"status" enum:"ok,broken,in-app"`
	Relation           string            `json:"relation" enum:"reference,dependsOn"`
	TargetReference    *ContentLocation  `json:"targetReference,omitempty" doc:"The target, when it exists and the caller may see it."`
	LocationReferences []ContentLocation `json:"locationReferences" doc:"Pages where a reference to the target is found."`
	Target             types.JSON        `json:"target" doc:"Quire extension: the content reference as written."`
}

// LinkStats counts the references of a link report (over all statuses).
type LinkStats struct {
	Total  int         `json:"total"`
	Broken BrokenStats `json:"broken"`
	OK     int         `json:"ok" doc:"Quire extension."`
	InApp  int         `json:"inApp" doc:"Quire extension."`
}

// BrokenStats counts broken references.
type BrokenStats struct {
	Total int `json:"total"`
}

// LinkReport is a page of a link report.
type LinkReport struct {
	Next  *nextPage               `json:"next,omitempty"`
	Count int                     `json:"count"`
	Stats LinkStats               `json:"stats"`
	Items []ContentReferenceUsage `json:"items"`
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

var pageKinds = map[string]string{content.TypeDocument: "sheet", content.TypeGroup: "group", content.TypeLink: "link"}

// presentTree presents pages with their children. Document pages carry
// their JSON document, as the reference's RevisionPageDocument requires
// one; the documents of the whole tree are loaded together.
func (a *API) presentTree(ctx context.Context, pages []*content.Page) ([]*Page, error) {
	docs, err := a.documents(ctx, pages)
	if err != nil {
		return nil, err
	}
	return presentAll(ctx, pages, a.pageWith(docs))
}

// presentPage presents one page with its children.
func (a *API) presentPage(ctx context.Context, p *content.Page) (*Page, error) {
	out, err := a.presentTree(ctx, []*content.Page{p})
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// documents loads the documents of the document pages of a tree, all at
// once so that the loader batches them.
func (a *API) documents(ctx context.Context, pages []*content.Page) (map[string]json.RawMessage, error) {
	var list []*content.Page
	content.Walk(pages, func(p *content.Page) {
		if p.Type == content.TypeDocument {
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
			raws[i], errs[i] = a.document(ctx, p, model.PageEvaluationNone)
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

// document returns the JSON document of a document page.
func (a *API) document(ctx context.Context, p *content.Page, eval model.PageEvaluation) (json.RawMessage, error) {
	doc, err := a.r.Page().Document(ctx, p, &eval)
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

func (a *API) pageWith(docs map[string]json.RawMessage) func(context.Context, *content.Page) (*Page, error) {
	var present func(context.Context, *content.Page) (*Page, error)
	present = func(ctx context.Context, p *content.Page) (*Page, error) {
		out, err := a.pageFields(ctx, p)
		if err != nil || p.Type == content.TypeLink {
			return out, err
		}
		if p.Type == content.TypeDocument {
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
func (a *API) pageFields(ctx context.Context, p *content.Page) (*Page, error) {
	pr := a.r.Page()
	out := &Page{ID: p.ID, Title: p.Title, Emoji: p.Emoji, Kind: pageKinds[p.Type], Type: p.Type, Hidden: p.Hidden}
	if out.Kind == "" {
		out.Kind = p.Type
	}
	switch p.Type {
	case content.TypeLink:
		target, err := pr.Target(ctx, p)
		if err != nil {
			return nil, err
		}
		out.Target = nonNull(target)
		if p.Link != nil && p.Link.Kind == document.RefURL {
			out.Href = p.Link.URL
		}
		if out.Target == nil {
			out.Target = types.JSON("{}")
		}
		return out, nil
	case content.TypeDocument:
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
		out.URLs, out.Layout, out.Cover, out.Variables = urls, layout, nonNull(cover), nonNull(vars)
		out.Description = p.Description
	}
	out.Slug, out.Path = p.Slug, p.Path
	return out, nil
}

// presentFile presents a file with a fresh download link.
func (a *API) presentFile(ctx context.Context, f *content.File) (*File, error) {
	fr := a.r.File()
	url, err := fr.DownloadURL(ctx, f)
	if err != nil {
		return nil, err
	}
	dims, err := fr.Dimensions(ctx, f)
	if err != nil {
		return nil, err
	}
	return &File{ID: f.ID, Name: f.Name, ContentType: f.ContentType, DownloadURL: url, Size: f.Size, Dimensions: dims}, nil
}

// presentRevision presents a revision with its page tree and files.
func (a *API) presentRevision(ctx context.Context, rev *content.Revision) (*Revision, error) {
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
	urls, err := rr.Urls(ctx, rev)
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
		ReusableContents: []ReusableContent{}, Variables: vars, CreatedAt: rev.CreatedAt.UTC(), URLs: urls,
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

// presentChangeRequest presents a change request.
func (a *API) presentChangeRequest(ctx context.Context, cr *ent.ChangeRequest) (*ChangeRequest, error) {
	r := a.r.ChangeRequest()
	status, err := r.Status(ctx, cr)
	if err != nil {
		return nil, err
	}
	desc, err := r.Description(ctx, cr)
	if err != nil {
		return nil, err
	}
	var rawDesc json.RawMessage
	if desc != nil && desc.D != nil {
		if rawDesc, err = json.Marshal(desc.D); err != nil {
			return nil, fmt.Errorf("encode description of change request %s: %w", cr.ID, err)
		}
	}
	var createdBy *User
	u, err := r.CreatedBy(ctx, cr)
	if err != nil {
		return nil, err
	}
	if u != nil {
		if createdBy, err = a.presentUser(ctx, u); err != nil {
			return nil, err
		}
	}
	comments, err := r.Comments(ctx, cr)
	if err != nil {
		return nil, err
	}
	outdated, err := r.Outdated(ctx, cr)
	if err != nil {
		return nil, err
	}
	urls, err := r.Urls(ctx, cr)
	if err != nil {
		return nil, err
	}
	return &ChangeRequest{
		Object: "change-request", ID: cr.ID, Number: cr.Number, Status: string(status), Subject: cr.Subject,
		Description: rawDesc, CreatedBy: createdBy, CreatedAt: cr.CreatedAt.UTC(), UpdatedAt: cr.UpdatedAt.UTC(),
		Space: cr.SpaceID, Revision: cr.RevisionID, RevisionInitial: cr.RevisionInitial,
		RevisionMergedAncestor: cr.RevisionMergedAncestor, RevisionMerged: cr.RevisionMerged,
		Comments: comments, Outdated: outdated, URLs: urls,
	}, nil
}
