package content

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"quire/ent"
	"quire/ent/pageversion"
	"quire/internal/apierr"
	"quire/internal/document"
	"quire/internal/types"
)

// Revision is the content of a revision.
type Revision struct {
	ID    string
	Space string
	// Type is initial, edits, merge or update.
	Type string
	// Parents are the revisions it was made from (two for merges and
	// updates).
	Parents []string
	// ChangeRequest is the change request the revision was made in (edits,
	// update) or that it merged (merge).
	ChangeRequest *string
	// Author is the user whose edit, merge or update made it, when known.
	Author    *string
	CreatedAt time.Time
	// Pages are the root-level pages in order, each with its children.
	Pages []*Page
	// Files are ordered by name.
	Files []*File
	// ReusableContents are ordered by title (without their documents).
	ReusableContents []*ReusableContent
	Variables        map[string]any
	// Git is the Git commit the revision was imported from, if any.
	Git *types.GitCommit
}

// Page is a page of a revision.
type Page struct {
	ID string
	// Revision and Space are the revision the page was read from and its
	// space.
	Revision, Space string
	// Type is document, group or link.
	Type        string
	Title       string
	Slug        string
	Path        string // slugs of the ancestors and the page, joined by "/"
	Emoji       string
	Description string
	Hidden      bool
	Parent      string // "" at the root level
	Position    string // ordering key among siblings
	Layout      map[string]any
	Cover       map[string]any
	Variables   map[string]any
	// Link is the target of a link page.
	Link *document.ContentRef
	// Pages are the children, in order (Revision only).
	Pages []*Page
	// Version is the id of the page version: equal versions mean equal
	// pages.
	Version string
	// Document and Markdown are the content of a document page (Page only).
	Document *document.Document
	Markdown string
	// Git is where the page came from in a Git repository, if anywhere.
	Git *types.GitBlob
	// LinkTitle is the shorter title the navigation shows ("": the title).
	LinkTitle string
	Icon      string
	// NoIndex keeps the page out of search; NoRobotsIndex asks search
	// engine robots not to index it.
	NoIndex, NoRobotsIndex bool
	MetaLinks              *types.PageMetaLinks
	// Computed is the definition of a computed document page (which has no
	// document of its own), ComputedSeed the seed of its generated ids.
	Computed     *types.PageComputed
	ComputedSeed string
	// CreatedAt is when the page's first version was written (nil when it
	// was written before Quire recorded it); UpdatedAt when its current
	// version was.
	CreatedAt *time.Time
	UpdatedAt time.Time
}

// File is a file of a revision.
type File struct {
	ID string
	// Revision and Space are the revision the file was read from and its
	// space.
	Revision, Space string
	Name            string
	ContentType     string
	Size            int64
	// Width and Height are set for images whose size could be read.
	Width, Height *int
	// Hash is the SHA-256 of the bytes (hex).
	Hash    string
	Version string
	// Git is where the file came from in a Git repository, if anywhere.
	Git *types.GitBlob
}

func pageOf(v *ent.PageVersion) *Page {
	return &Page{
		ID: v.PageID, Type: v.Type, Title: v.Title, Slug: v.Slug, Emoji: v.Emoji,
		Description: v.Description, Hidden: v.Hidden, Parent: v.ParentID, Position: v.Position,
		Layout: v.Layout, Cover: v.Cover, Variables: v.Variables, Link: v.Link, Version: v.ID, Git: v.Git,
		LinkTitle: v.LinkTitle, Icon: v.Icon, NoIndex: v.NoIndex, NoRobotsIndex: v.NoRobotsIndex,
		MetaLinks: v.MetaLinks, Computed: v.Computed, ComputedSeed: v.ComputedSeed,
		CreatedAt: v.PageCreatedAt, UpdatedAt: v.CreatedAt,
	}
}

func fileOf(v *ent.FileVersion) *File {
	return &File{ID: v.FileID, Name: v.Name, ContentType: v.ContentType, Size: v.Size,
		Width: v.Width, Height: v.Height, Hash: v.BlobID, Version: v.ID, Git: v.Git}
}

// siblingOrder orders pages by position, then id.
func siblingOrder(a, b *ent.PageVersion) int {
	if c := cmp.Compare(a.Position, b.Position); c != 0 {
		return c
	}
	return cmp.Compare(a.PageID, b.PageID)
}

// childrenOf indexes a state's pages by parent, each list in order. Pages
// whose parent is missing are listed at the root level.
func childrenOf(st *state) map[string][]*ent.PageVersion {
	out := map[string][]*ent.PageVersion{}
	for _, v := range st.pages {
		p := v.ParentID
		if p != "" && st.pages[p] == nil {
			p = ""
		}
		out[p] = append(out[p], v)
	}
	for _, list := range out {
		slices.SortFunc(list, siblingOrder)
	}
	return out
}

func buildRevision(r *ent.Revision, st *state) *Revision {
	out := &Revision{
		ID: r.ID, Space: r.SpaceID, Type: r.Type, Parents: r.Parents, ChangeRequest: r.ChangeRequestID,
		Author: r.AuthorID, CreatedAt: r.CreatedAt, Variables: st.vars, Pages: []*Page{}, Files: []*File{},
		Git: r.Git,
	}
	if out.Parents == nil {
		out.Parents = []string{}
	}
	kids := childrenOf(st)
	var build func(parent, prefix string) []*Page
	build = func(parent, prefix string) []*Page {
		list := kids[parent]
		pages := make([]*Page, 0, len(list))
		for _, v := range list {
			p := pageOf(v)
			p.Revision, p.Space = r.ID, r.SpaceID
			p.Path = prefix + v.Slug
			p.Pages = build(v.PageID, p.Path+"/")
			pages = append(pages, p)
		}
		return pages
	}
	out.Pages = build("", "")
	for _, f := range st.files {
		file := fileOf(f)
		file.Revision, file.Space = r.ID, r.SpaceID
		out.Files = append(out.Files, file)
	}
	slices.SortFunc(out.Files, func(a, b *File) int {
		if c := cmp.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	out.ReusableContents = reusableList(r, st)
	return out
}

// Revision reads a revision's content: its page tree (without documents),
// files and variables.
// Errors: NotFound.
func (s *Service) Revision(ctx context.Context, id string) (*Revision, error) {
	revs, states, err := loadStates(ctx, s.Client, loadView, id)
	if err != nil {
		return nil, err
	}
	return buildRevision(revs[id], states[id]), nil
}

// Page reads one page of a revision with its document and Markdown. It
// reads only that page and its ancestors (for the path), not the revision.
// Errors: NotFound.
func (s *Service) Page(ctx context.Context, revisionID, pageID string) (*Page, error) {
	revs, err := loadRevisions(ctx, s.Client, revisionID)
	if err != nil {
		return nil, err
	}
	r := revs[revisionID]
	v, err := pageVersionIn(ctx, s.Client, r, pageID)
	if err != nil {
		return nil, err
	}
	if v == nil {
		return nil, apierr.NotFoundf("No matching page found for id %q in revision %q", pageID, revisionID)
	}
	p := pageOf(v)
	p.Revision, p.Space = r.ID, r.SpaceID
	// Path: walk up the ancestors.
	path := []string{v.Slug}
	for parent, depth := v.ParentID, 0; parent != "" && depth < 64; depth++ {
		a, err := pageVersionIn(ctx, s.Client, r, parent)
		if err != nil {
			return nil, err
		}
		if a == nil {
			break
		}
		path = append(path, a.Slug)
		parent = a.ParentID
	}
	slices.Reverse(path)
	p.Path = strings.Join(path, "/")
	if v.DocumentID != nil {
		doc, err := loadDocument(ctx, s.Client, *v.DocumentID)
		if err != nil {
			return nil, err
		}
		p.Document = doc
		p.Markdown = document.ToMarkdown(doc)
	}
	return p, nil
}

func pageVersionIn(ctx context.Context, c *ent.Client, r *ent.Revision, pageID string) (*ent.PageVersion, error) {
	vid, ok, err := itemVersion(ctx, c, r, kindPage, pageID)
	if err != nil || !ok {
		return nil, err
	}
	v, err := c.PageVersion.Query().Where(pageversion.ID(vid)).Select(pageColumns...).Only(ctx)
	if err != nil {
		return nil, fmt.Errorf("load page version: %w", err)
	}
	return v, nil
}

func loadDocument(ctx context.Context, c *ent.Client, hash string) (*document.Document, error) {
	blobs, err := loadBlobs(ctx, c, []string{hash})
	if err != nil {
		return nil, err
	}
	raw, ok := blobs[hash]
	if !ok {
		return nil, fmt.Errorf("document blob %s is missing", hash)
	}
	doc, err := document.ParseStored(raw)
	if err != nil {
		return nil, fmt.Errorf("decode document %s: %w", hash, err)
	}
	return doc, nil
}

// Files lists the files of a revision, ordered by name.
// Errors: NotFound.
func (s *Service) Files(ctx context.Context, revisionID string) ([]*File, error) {
	revs, states, err := loadStates(ctx, s.Client, loadFiles, revisionID)
	if err != nil {
		return nil, err
	}
	return buildRevision(revs[revisionID], states[revisionID]).Files, nil
}

// PageByPath reads the page of a revision at a path (slugs joined by "/",
// as in Page.Path), with its document and Markdown.
// Errors: NotFound.
func (s *Service) PageByPath(ctx context.Context, revisionID, path string) (*Page, error) {
	rev, err := s.Revision(ctx, revisionID)
	if err != nil {
		return nil, err
	}
	path = strings.Trim(path, "/")
	var found *Page
	Walk(rev.Pages, func(p *Page) {
		if found == nil && p.Path == path {
			found = p
		}
	})
	if found == nil {
		return nil, apierr.NotFoundf("No page at path %q in revision %q", path, revisionID)
	}
	return s.Page(ctx, revisionID, found.ID)
}

// File reads one file of a revision (without its bytes).
// Errors: NotFound.
func (s *Service) File(ctx context.Context, revisionID, fileID string) (*File, error) {
	v, err := s.fileVersion(ctx, revisionID, fileID)
	if err != nil {
		return nil, err
	}
	f := fileOf(v)
	f.Revision, f.Space = revisionID, v.SpaceID
	return f, nil
}

// FileContent reads one file of a revision and its bytes.
// Errors: NotFound.
func (s *Service) FileContent(ctx context.Context, revisionID, fileID string) (*File, []byte, error) {
	v, err := s.fileVersion(ctx, revisionID, fileID)
	if err != nil {
		return nil, nil, err
	}
	blobs, err := loadBlobs(ctx, s.Client, []string{v.BlobID})
	if err != nil {
		return nil, nil, err
	}
	data, ok := blobs[v.BlobID]
	if !ok {
		return nil, nil, fmt.Errorf("file blob %s is missing", v.BlobID)
	}
	f := fileOf(v)
	f.Revision, f.Space = revisionID, v.SpaceID
	return f, data, nil
}

func (s *Service) fileVersion(ctx context.Context, revisionID, fileID string) (*ent.FileVersion, error) {
	revs, err := loadRevisions(ctx, s.Client, revisionID)
	if err != nil {
		return nil, err
	}
	vid, ok, err := itemVersion(ctx, s.Client, revs[revisionID], kindFile, fileID)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, apierr.NotFoundf("No matching file found for id %q in revision %q", fileID, revisionID)
	}
	fv, err := loadFileVersions(ctx, s.Client, []string{vid})
	if err != nil {
		return nil, err
	}
	if fv[vid] == nil {
		return nil, fmt.Errorf("file version %s is missing", vid)
	}
	return fv[vid], nil
}

// Walk calls fn for every page of the tree, depth first, in order.
func Walk(pages []*Page, fn func(p *Page)) {
	for _, p := range pages {
		fn(p)
		Walk(p.Pages, fn)
	}
}

// sortedKeys returns the keys of a map in order.
func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}
