package content

import (
	"bytes"
	"encoding/json"
	"image"
	_ "image/gif"  // image dimensions of GIF files
	_ "image/jpeg" // image dimensions of JPEG files
	_ "image/png"  // image dimensions of PNG files
	"net/http"
	"strings"
	"unicode/utf8"

	"quire/ent"
	"quire/internal/apierr"
	"quire/internal/ids"
)

func validType(t string) bool { return t == TypeDocument || t == TypeGroup || t == TypeLink }

func (c *CreatePage) apply(e *editor) (string, error) {
	typ := c.Type
	if typ == "" {
		typ = TypeDocument
	}
	if !validType(typ) {
		return "", apierr.Invalid("type", "type must be document, group or link")
	}
	title := strings.TrimSpace(c.Title)
	if title == "" {
		return "", apierr.Invalid("title", "title is required")
	}
	for _, x := range []struct {
		field, v string
		max      int
	}{{"title", title, MaxTitle}, {"description", c.Description, MaxDescription}, {"emoji", c.Emoji, MaxEmoji}, {"slug", c.Slug, MaxSlug}} {
		if err := checkLen(x.field, x.v, x.max); err != nil {
			return "", err
		}
	}
	props, err := pageProps{linkTitle: c.LinkTitle, icon: c.Icon, noIndex: c.NoIndex, noRobotsIndex: c.NoRobotsIndex,
		metaLinks: c.MetaLinks, computed: c.Computed}.check("", typ)
	if err != nil {
		return "", err
	}
	if props.computed != nil && (c.Markdown != nil || c.Document != nil) {
		return "", apierr.Invalid("computed", "A computed page has no content of its own: give computed or markdown/document, not both")
	}
	if err := e.checkParent(c.Parent, typ); err != nil {
		return "", err
	}
	slug := slugify(title)
	if c.Slug != "" {
		if !validSlug(c.Slug) {
			return "", apierr.Invalid("slug", "slug %q must hold lower case letters and digits separated by single hyphens", c.Slug)
		}
		slug = c.Slug
	}
	if slug == "" {
		slug = "untitled"
	}
	pos, err := e.place(c.Parent, c.Position, "")
	if err != nil {
		return "", err
	}
	created := e.now
	pageID := ids.New(ids.Page)
	if c.ID != "" {
		if k, ok := ids.KindOf(c.ID); !ok || k != ids.Page || e.st.pages[c.ID] != nil {
			return "", apierr.Invalid("id", "id %q is not a new page id", c.ID)
		}
		pageID = c.ID
	}
	v := &ent.PageVersion{
		ID: ids.New(ids.PageVersion), SpaceID: e.spaceID, PageID: pageID, ParentID: c.Parent,
		Position: pos, Type: typ, Title: title, Slug: e.uniqueSlug(c.Parent, slug, ""), Emoji: c.Emoji,
		Description: c.Description, Hidden: c.Hidden, Layout: c.Layout, Cover: c.Cover,
		Variables: c.Variables, CreatedAt: e.now, PageCreatedAt: &created,
	}
	props.set(v)
	switch typ {
	case TypeDocument:
		if c.Link != nil {
			return "", apierr.Invalid("link", "Only link pages have a link target")
		}
		if props.computed != nil {
			break // generated content: no document of its own
		}
		if err := e.setDocument(v, c.Markdown, c.Document); err != nil {
			return "", err
		}
	case TypeLink:
		if c.Markdown != nil || c.Document != nil {
			return "", apierr.Invalid("document", "A link page has no content")
		}
		if err := e.setLink(v, c.Link); err != nil {
			return "", err
		}
	case TypeGroup:
		if c.Markdown != nil || c.Document != nil || c.Link != nil {
			return "", apierr.Invalid("document", "A page group has no content")
		}
	}
	e.put(v)
	return v.PageID, nil
}

// revise returns a copy of v to change into a new version.
func (e *editor) revise(v *ent.PageVersion) *ent.PageVersion {
	nv := *v
	nv.ID = ids.New(ids.PageVersion)
	nv.SpaceID = e.spaceID
	nv.CreatedAt = e.now
	if src, ok := e.inherit[v.ID]; ok {
		e.inherit[nv.ID] = src // v is itself new in this edit
	} else if v.Refs == nil && v.Anchors == nil {
		e.inherit[nv.ID] = v.ID
	}
	return &nv
}

func samePage(a, b *ent.PageVersion) bool {
	return a.ParentID == b.ParentID && a.Position == b.Position && a.Title == b.Title &&
		a.ContentHash == b.ContentHash && a.MetaHash == b.MetaHash
}

func (u *UpdatePage) apply(e *editor) (string, error) {
	old, err := e.page("page", u.Page)
	if err != nil {
		return "", err
	}
	v := e.revise(old)
	if u.Title != nil {
		t := strings.TrimSpace(*u.Title)
		if t == "" {
			return "", apierr.Invalid("title", "title must not be empty")
		}
		if err := checkLen("title", t, MaxTitle); err != nil {
			return "", err
		}
		v.Title = t
	}
	if u.Slug != nil {
		if !validSlug(*u.Slug) || utf8.RuneCountInString(*u.Slug) > MaxSlug {
			return "", apierr.Invalid("slug", "slug %q must hold lower case letters and digits separated by single hyphens", *u.Slug)
		}
		if *u.Slug != old.Slug {
			v.Slug = e.uniqueSlug(old.ParentID, *u.Slug, old.PageID)
		}
	}
	if u.Emoji != nil {
		if err := checkLen("emoji", *u.Emoji, MaxEmoji); err != nil {
			return "", err
		}
		v.Emoji = *u.Emoji
	}
	if u.Description != nil {
		if err := checkLen("description", *u.Description, MaxDescription); err != nil {
			return "", err
		}
		v.Description = *u.Description
	}
	if u.Hidden != nil {
		v.Hidden = *u.Hidden
	}
	if u.Layout.Set {
		v.Layout = u.Layout.Value
	}
	if u.Cover.Set {
		v.Cover = u.Cover.Value
	}
	if u.Variables.Set {
		v.Variables = u.Variables.Value
	}
	if err := u.applyProps(e, old, v); err != nil {
		return "", err
	}
	if u.Markdown != nil || u.Document != nil {
		if v.Computed != nil {
			return "", apierr.Invalid("computed", "Page %q is computed: its content is generated; remove computed to write content", old.PageID)
		}
		if old.Type != TypeDocument {
			return "", apierr.Invalid("document", "Only document pages have content (page %q is a %s)", old.PageID, old.Type)
		}
		if err := e.setDocument(v, u.Markdown, u.Document); err != nil {
			return "", err
		}
	}
	if u.Link != nil {
		if old.Type != TypeLink {
			return "", apierr.Invalid("link", "Only link pages have a link target (page %q is a %s)", old.PageID, old.Type)
		}
		if err := e.setLink(v, u.Link); err != nil {
			return "", err
		}
	}
	seal(v)
	if samePage(v, old) {
		return old.PageID, nil
	}
	e.put(v)
	return v.PageID, nil
}

func (m *MovePage) apply(e *editor) (string, error) {
	old, err := e.page("page", m.Page)
	if err != nil {
		return "", err
	}
	if !m.Parent.Set && m.Position == nil {
		return "", apierr.Invalid("parent", "Provide parent and/or position")
	}
	parent := old.ParentID
	if m.Parent.Set {
		parent = m.Parent.Value
	}
	if err := e.checkParent(parent, old.Type); err != nil {
		return "", err
	}
	for a, depth := parent, 0; a != "" && depth <= len(e.st.pages); depth++ {
		if a == old.PageID {
			return "", apierr.Invalid("parent", "A page cannot be moved into itself or one of its descendants")
		}
		p := e.st.pages[a]
		if p == nil {
			break
		}
		a = p.ParentID
	}
	if parent == old.ParentID && (m.Position == nil || (m.Position.Before == "" && m.Position.After == "")) {
		return old.PageID, nil // already there
	}
	pos, err := e.place(parent, m.Position, old.PageID)
	if err != nil {
		return "", err
	}
	v := e.revise(old)
	v.ParentID, v.Position = parent, pos
	if parent != old.ParentID {
		v.Slug = e.uniqueSlug(parent, old.Slug, old.PageID)
	}
	e.put(v)
	return v.PageID, nil
}

func (d *DeletePage) apply(e *editor) (string, error) {
	if _, err := e.page("page", d.Page); err != nil {
		return "", err
	}
	var drop func(id string)
	drop = func(id string) {
		for kid := range e.kids[id] {
			drop(kid)
		}
		delete(e.kids, id)
		delete(e.slugs, id)
		e.remove(id)
	}
	drop(d.Page)
	return d.Page, nil
}

func (u *UploadFile) apply(e *editor) (string, error) {
	name := strings.TrimSpace(u.Name)
	if name == "" {
		return "", apierr.Invalid("name", "name is required")
	}
	if err := checkLen("name", name, MaxFileName); err != nil {
		return "", err
	}
	if len(u.Data) > MaxFileSize {
		return "", apierr.New(apierr.TooLarge, "The file is larger than %d bytes", MaxFileSize)
	}
	fileID := u.File
	if fileID != "" && e.st.files[fileID] == nil {
		return "", apierr.NotFoundf("No matching file found for id %q", fileID)
	}
	if fileID == "" && u.NewID != "" {
		if k, ok := ids.KindOf(u.NewID); !ok || k != ids.File || e.st.files[u.NewID] != nil {
			return "", apierr.Invalid("id", "id %q is not a new file id", u.NewID)
		}
		fileID = u.NewID
	}
	if fileID == "" {
		fileID = ids.New(ids.File)
	}
	ct := strings.TrimSpace(u.ContentType)
	if ct == "" {
		ct = http.DetectContentType(u.Data)
	}
	if err := checkLen("contentType", ct, 255); err != nil {
		return "", err
	}
	v := &ent.FileVersion{
		ID: ids.New(ids.FileVersion), SpaceID: e.spaceID, FileID: fileID, Name: name, ContentType: ct,
		Size: int64(len(u.Data)), BlobID: e.blobs.blob(u.Data), CreatedAt: e.now,
	}
	if cfg, _, err := image.DecodeConfig(bytes.NewReader(u.Data)); err == nil {
		v.Width, v.Height = &cfg.Width, &cfg.Height
	}
	if old := e.st.files[fileID]; old != nil && old.Name == v.Name && old.ContentType == v.ContentType && old.BlobID == v.BlobID {
		return fileID, nil
	}
	e.st.files[fileID] = v
	e.files[fileID] = v
	return fileID, nil
}

func (d *DeleteFile) apply(e *editor) (string, error) {
	if d.File == "" {
		return "", apierr.Invalid("file", "file is required")
	}
	if e.st.files[d.File] == nil {
		return "", apierr.NotFoundf("No matching file found for id %q", d.File)
	}
	delete(e.st.files, d.File)
	return d.File, nil
}

func (s *SetVariables) apply(e *editor) (string, error) {
	vars := s.Variables
	if vars == nil {
		vars = map[string]any{}
	}
	if _, err := json.Marshal(vars); err != nil {
		return "", apierr.Invalid("variables", "Invalid variables: %v", err)
	}
	e.st.vars = vars
	return "", nil
}
