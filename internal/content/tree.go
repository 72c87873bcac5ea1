package content

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"quire/ent"
	"quire/internal/apierr"
	"quire/internal/document"
	"quire/internal/types"
)

// Limits of WriteTree.
const (
	// MaxTreePages is the most pages a tree may hold.
	MaxTreePages = 10_000
	// MaxTreeFiles is the most files a tree may hold.
	MaxTreeFiles = 10_000
	// MaxTreeDepth is how deep pages of a tree may nest.
	MaxTreeDepth = 32
)

// TreePage is a page of a tree written by WriteTree, with its children.
type TreePage struct {
	// Key names the page within the tree, so that the tree's documents and
	// link pages can point at it before it has an id: a page or anchor
	// reference (without a space, or in the written space) whose page is
	// the key of a page of the tree is written with that page's id. Keys
	// are optional and unique within a tree; they are never stored.
	Key string
	// Type is document (the default), group or link. Groups live at the
	// root level only; link pages have no children.
	Type  string
	Title string
	// Slug defaults to one made from the title; it is made unique among
	// the siblings.
	Slug        string
	Emoji       string
	Description string
	Hidden      bool
	// Content of a document page: Markdown or a document, not both (none:
	// an empty page).
	Markdown *string
	Document *document.Document
	// Link is the target of a link page.
	Link      *document.ContentRef
	Layout    map[string]any
	Cover     map[string]any
	Variables map[string]any
	// Git is where the page comes from in a Git repository, if anywhere.
	Git *types.GitBlob
	// LinkTitle, Icon, NoIndex, NoRobotsIndex, MetaLinks and Computed are
	// checked as CreatePage's are; a computed page has no content of its
	// own.
	LinkTitle, Icon        string
	NoIndex, NoRobotsIndex bool
	MetaLinks              *types.PageMetaLinks
	Computed               *types.PageComputed
	Pages                  []*TreePage
}

// TreeFile is a file of a tree written by WriteTree.
type TreeFile struct {
	// Key names the file within the tree: a file reference of the tree's
	// documents whose file is the key of a file of the tree is written with
	// that file's id. Optional, unique within a tree, never stored.
	Key  string
	Name string
	// ContentType is detected from the bytes when empty.
	ContentType string
	Data        []byte
	Git         *types.GitBlob
}

// Tree is the whole content WriteTree writes as a revision of a space.
type Tree struct {
	// Pages are the root-level pages, in order.
	Pages []*TreePage
	Files []*TreeFile
	// Variables are the space-level variables; nil keeps the current ones.
	Variables map[string]any
	// Reusables are the reusable contents, when ReplaceReusables is set;
	// otherwise the current ones are kept.
	Reusables        []*TreeReusable
	ReplaceReusables bool
}

// TreeOptions change how WriteTree writes a tree.
type TreeOptions struct {
	// Standalone writes the revision without making it the space's
	// current revision (it still follows the current one).
	Standalone bool
	// Git is the Git commit the revision comes from, if any.
	Git *types.GitCommit
	// Check, when set, runs inside the write's transaction once the space
	// row is locked (so that nothing else writes the space meanwhile); an
	// error stops the write and is returned as it is.
	Check func(ctx context.Context, sp *ent.Space) error
	// Then, when set, runs inside the write's transaction after the
	// revision is written (res.Revision is "" when nothing changed), so
	// that what the caller records commits together with the content; an
	// error rolls everything back. tx is the write's transaction.
	Then func(ctx context.Context, tx *ent.Tx, res *TreeResult) error
}

// TreeResult is the outcome of WriteTree.
type TreeResult struct {
	// Space is the space after the write.
	Space *ent.Space
	// Revision is the revision written; "" when the tree is what the
	// space holds already (a standalone write always writes one).
	Revision string
	// Pages and Files map the keys of the tree's pages and files to their
	// ids.
	Pages map[string]string
	Files map[string]string
	// Matched counts the pages and files that kept the id of one of the
	// space's current content; the others are new.
	Matched int
}

// WriteTree writes a whole tree of pages (documents, groups, links) and
// files as a new revision of a space: its current revision, or with
// Standalone a revision of its own that the space does not show. The
// revision is a delta on the current revision (its only parent), so pages
// and files equal to the current ones are shared, not copied.
//
// Pages keep their ids across writes: a page of the tree takes the id of
// the current page at the same path (slugs from the root) and of the same
// type, or else of the current page of that type that came from the same
// Git path; a file takes the id of the current file from the same Git
// path, or else of the one with the same name. Links and change requests
// that name those ids keep working. Pages and files of the current content
// that the tree does not hold are not in the revision.
//
// Markdown is converted and documents are checked against the content
// limits before the transaction starts; the tree is bounded by MaxTreePages,
// MaxTreeFiles, MaxTreeDepth and MaxFileSize. The space row is locked for
// the transaction, like EditSpace's. Open change requests become outdated
// when the current revision changes.
// The caller needs edit rights on the space.
// Errors: NotFound (space), BadRequest (invalid tree; the field names the
// page or file, such as pages[2].pages[0].title), Forbidden (no edit
// rights; the space is locked), PreconditionFailed (the space is deleted),
// and those of opts.Check and opts.Then.
func (s *Service) WriteTree(ctx context.Context, spaceID string, tree *Tree, opts TreeOptions) (*TreeResult, error) {
	if tree == nil {
		tree = &Tree{}
	}
	if _, err := s.SpaceFor(ctx, spaceID, types.RoleEdit); err != nil {
		return nil, err
	}
	prep, err := prepareTree(tree)
	if err != nil {
		return nil, err
	}
	userID := actor(ctx)
	now := s.Now()
	var res *TreeResult
	err = withTx(ctx, s.Client, func(tx *ent.Tx) error {
		c := tx.Client()
		sp, err := lockSpace(ctx, c, spaceID)
		if err != nil {
			return err
		}
		if err := checkEditable(sp, "writing content"); err != nil {
			return err
		}
		if opts.Check != nil {
			if err := opts.Check(ctx, sp); err != nil {
				return err
			}
		}
		var (
			head    *ent.Revision
			base    = newState()
			parents = []string{}
		)
		if sp.RevisionID != "" {
			revs, states, err := loadStates(ctx, c, loadTree, sp.RevisionID)
			if err != nil {
				return err
			}
			head, base = revs[sp.RevisionID], states[sp.RevisionID]
			parents = []string{head.ID}
		}
		w := newTreeWriter(sp.ID, now, base)
		next, err := w.build(prep, tree.Variables)
		if err != nil {
			return err
		}
		res = &TreeResult{Space: sp, Pages: w.pageIDs, Files: w.fileIDs, Matched: w.matched}
		if !opts.Standalone && len(diffEntries(base, next)) == 0 && sameJSON(base.vars, next.vars) {
			if opts.Then != nil {
				return opts.Then(ctx, tx, res)
			}
			return nil
		}
		if err := insertPending(ctx, c, w.pending(next)); err != nil {
			return err
		}
		rev, err := writeRevision(ctx, c, revisionWrite{
			spaceID: sp.ID, typ: RevisionEdits, base: head, baseState: base, next: next,
			parents: parents, authorID: author(userID), now: now, git: opts.Git,
		})
		if err != nil {
			return err
		}
		res.Revision = rev.ID
		if !opts.Standalone {
			var old *state
			if head != nil {
				old = base
			}
			err = s.setCurrentRevision(ctx, tx, revisionChange{space: sp, rev: rev, old: old, next: next, actor: userID, now: now,
				update: func(u *ent.SpaceUpdate) *ent.SpaceUpdate { return u.SetUpdatedAt(now) }})
			if err != nil {
				return err
			}
			if res.Space, err = c.Space.Get(ctx, sp.ID); err != nil {
				return fmt.Errorf("reload space: %w", err)
			}
		}
		if opts.Then != nil {
			return opts.Then(ctx, tx, res)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// preparedPage is a page of the tree, checked, with its document parsed.
type preparedPage struct {
	field string // where the page is in the tree: pages[0].pages[2]
	in    *TreePage
	typ   string
	title string
	slug  string // "" when it comes from the title
	doc   *document.Document
	props pageProps
	// keyRefs tells that the document holds references to keys of the
	// tree, to rewrite once ids are known.
	keyRefs bool
	kids    []*preparedPage
}

type preparedFile struct {
	field string
	in    *TreeFile
	name  string
}

type preparedTree struct {
	pages []*preparedPage
	files []*preparedFile
	// Keys of the tree's pages and files.
	pageKeys, fileKeys map[string]bool
	reusables          *preparedReusables
}

// prepareTree checks a tree and converts its Markdown: everything that
// does not depend on the space's current content, done once, outside the
// transaction.
func prepareTree(tree *Tree) (*preparedTree, error) {
	p := &preparedTree{pageKeys: map[string]bool{}, fileKeys: map[string]bool{}}
	var err error
	if p.reusables, err = prepareReusables(tree); err != nil {
		return nil, err
	}
	if len(tree.Files) > MaxTreeFiles {
		return nil, apierr.Invalid("files", "A tree holds at most %d files (%d given)", MaxTreeFiles, len(tree.Files))
	}
	for i, f := range tree.Files {
		field := fmt.Sprintf("files[%d]", i)
		if f == nil {
			return nil, apierr.Invalid(field, "%s is empty", field)
		}
		name := strings.TrimSpace(f.Name)
		if name == "" {
			return nil, apierr.Invalid(field+".name", "%s.name is required", field)
		}
		if err := checkLen(field+".name", name, MaxFileName); err != nil {
			return nil, err
		}
		if len(f.Data) > MaxFileSize {
			return nil, apierr.New(apierr.TooLarge, "%s is larger than %d bytes", field, MaxFileSize)
		}
		if err := checkLen(field+".contentType", f.ContentType, 255); err != nil {
			return nil, err
		}
		if f.Key != "" {
			if p.fileKeys[f.Key] {
				return nil, apierr.Invalid(field+".key", "%s.key %q is used twice", field, f.Key)
			}
			p.fileKeys[f.Key] = true
		}
		p.files = append(p.files, &preparedFile{field: field, in: f, name: name})
	}
	count := 0
	var walk func(pages []*TreePage, prefix string, depth int, root bool) ([]*preparedPage, error)
	walk = func(pages []*TreePage, prefix string, depth int, root bool) ([]*preparedPage, error) {
		if depth > MaxTreeDepth && len(pages) > 0 {
			return nil, apierr.Invalid(prefix+"pages", "Pages nest at most %d levels deep", MaxTreeDepth)
		}
		out := make([]*preparedPage, 0, len(pages))
		for i, tp := range pages {
			count++
			if count > MaxTreePages {
				return nil, apierr.Invalid("pages", "A tree holds at most %d pages", MaxTreePages)
			}
			field := fmt.Sprintf("%spages[%d]", prefix, i)
			pp, err := preparePage(tp, field, root)
			if err != nil {
				return nil, err
			}
			if tp.Key != "" {
				if p.pageKeys[tp.Key] {
					return nil, apierr.Invalid(field+".key", "%s.key %q is used twice", field, tp.Key)
				}
				p.pageKeys[tp.Key] = true
			}
			if pp.kids, err = walk(tp.Pages, field+".", depth+1, false); err != nil {
				return nil, err
			}
			out = append(out, pp)
		}
		return out, nil
	}
	if p.pages, err = walk(tree.Pages, "", 1, true); err != nil {
		return nil, err
	}
	// Which documents point at keys (known only once every key is).
	var mark func(pages []*preparedPage)
	mark = func(pages []*preparedPage) {
		for _, pp := range pages {
			document.EachRef(pp.doc, func(r document.ContentRef) {
				if p.isKeyRef(r) {
					pp.keyRefs = true
				}
			})
			mark(pp.kids)
		}
	}
	mark(p.pages)
	return p, nil
}

func preparePage(tp *TreePage, field string, root bool) (*preparedPage, error) {
	if tp == nil {
		return nil, apierr.Invalid(field, "%s is empty", field)
	}
	typ := tp.Type
	if typ == "" {
		typ = TypeDocument
	}
	if !validType(typ) {
		return nil, apierr.Invalid(field+".type", "%s.type must be document, group or link", field)
	}
	title := strings.TrimSpace(tp.Title)
	if title == "" {
		return nil, apierr.Invalid(field+".title", "%s.title is required", field)
	}
	for _, x := range []struct {
		name, v string
		max     int
	}{{"title", title, MaxTitle}, {"description", tp.Description, MaxDescription}, {"emoji", tp.Emoji, MaxEmoji}, {"slug", tp.Slug, MaxSlug}} {
		if err := checkLen(field+"."+x.name, x.v, x.max); err != nil {
			return nil, err
		}
	}
	if tp.Slug != "" && !validSlug(tp.Slug) {
		return nil, apierr.Invalid(field+".slug", "%s.slug %q must hold lower case letters and digits separated by single hyphens", field, tp.Slug)
	}
	if typ == TypeGroup && !root {
		return nil, apierr.Invalid(field+".type", "%s: page groups live at the root level only", field)
	}
	if typ == TypeLink && len(tp.Pages) > 0 {
		return nil, apierr.Invalid(field+".pages", "%s: a link page cannot have child pages", field)
	}
	if tp.Git != nil && (tp.Git.OID == "" || tp.Git.Path == "") {
		return nil, apierr.Invalid(field+".git", "%s.git needs both oid and path", field)
	}
	props, err := pageProps{linkTitle: tp.LinkTitle, icon: tp.Icon, noIndex: tp.NoIndex, noRobotsIndex: tp.NoRobotsIndex,
		metaLinks: tp.MetaLinks, computed: tp.Computed}.check(field+".", typ)
	if err != nil {
		return nil, err
	}
	pp := &preparedPage{field: field, in: tp, typ: typ, title: title, slug: tp.Slug, props: props}
	switch typ {
	case TypeDocument:
		if tp.Link != nil {
			return nil, apierr.Invalid(field+".link", "%s: only link pages have a link target", field)
		}
		if props.computed != nil {
			if tp.Markdown != nil || tp.Document != nil {
				return nil, apierr.Invalid(field+".computed", "%s: a computed page has no content of its own: give computed or markdown/document, not both", field)
			}
			break
		}
		if tp.Markdown != nil && tp.Document != nil {
			return nil, apierr.Invalid(field+".document", "%s: provide the content as markdown or as a document, not both", field)
		}
		doc := tp.Document
		if tp.Markdown != nil {
			d, err := document.FromMarkdown(*tp.Markdown)
			if err != nil {
				return nil, fieldError(field, err, "markdown")
			}
			doc = d
		}
		if doc == nil {
			doc = &document.Document{Data: map[string]any{}, Nodes: []document.Node{}}
		}
		if err := doc.Validate(); err != nil {
			return nil, fieldError(field, err, "document")
		}
		pp.doc = doc
	case TypeLink:
		if tp.Markdown != nil || tp.Document != nil {
			return nil, apierr.Invalid(field+".document", "%s: a link page has no content", field)
		}
		if tp.Link == nil {
			return nil, apierr.Invalid(field+".link", "%s: a link page needs a link target", field)
		}
	case TypeGroup:
		if tp.Markdown != nil || tp.Document != nil || tp.Link != nil {
			return nil, apierr.Invalid(field+".document", "%s: a page group has no content", field)
		}
	}
	return pp, nil
}

// fieldError puts an error of a page's content under the page's field.
func fieldError(field string, err error, what string) error {
	if ae, ok := apierr.As(err); ok {
		f := ae.Field
		if f == "" {
			f = what
		}
		return &apierr.Error{Code: ae.Code, Field: field + "." + f, Message: field + ": " + ae.Message}
	}
	return apierr.Invalid(field+"."+what, "%s: invalid %s: %v", field, what, err)
}

// isKeyRef tells whether r points at a key of the tree.
func (p *preparedTree) isKeyRef(r document.ContentRef) bool {
	switch r.Kind {
	case document.RefPage, document.RefAnchor:
		return r.Page != "" && p.pageKeys[r.Page]
	case document.RefFile:
		return p.fileKeys[r.File]
	case document.RefReusableContent:
		return r.Space == "" && p.reusables.keys[r.ReusableContent]
	}
	return false
}

// contentOf returns the JSON of a document as stored.
func contentOf(doc *document.Document) ([]byte, error) {
	raw, err := json.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("encode document: %w", err)
	}
	return raw, nil
}

// Slugify makes a slug of a title, as WriteTree does for pages given none:
// lower-case letters and digits separated by single hyphens, at most
// MaxSlug characters; "" when the title has neither letters nor digits.
func Slugify(title string) string { return slugify(title) }
