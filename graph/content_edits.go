package graph

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"

	"github.com/99designs/gqlgen/graphql"

	"quire/graph/model"
	"quire/internal/apierr"
	"quire/internal/catalog"
	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/types"
)

// parseDocument parses a JSON document given for field.
func parseDocument(field string, raw types.JSON) (*document.Document, error) {
	doc, err := document.Parse(raw)
	if err != nil {
		if e, ok := apierr.As(err); ok && e.Field != "" && field != "document" {
			msg := e.Message
			if strings.HasPrefix(msg, "document") {
				msg = field + strings.TrimPrefix(msg, "document")
			}
			return nil, apierr.Invalid(field+strings.TrimPrefix(e.Field, "document"), "%s", msg)
		}
		return nil, err
	}
	return doc, nil
}

// jsonObject decodes a JSON object given for field; null gives nil.
func jsonObject(field string, raw types.JSON) (map[string]any, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return nil, apierr.Invalid(field, "%s must be a JSON object", field)
	}
	return m, nil
}

// contentRef decodes a content reference given for field.
func contentRef(field string, raw types.JSON) (*document.ContentRef, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var ref document.ContentRef
	if err := dec.Decode(&ref); err != nil {
		return nil, apierr.Invalid(field, "%s must be a content reference {kind, ...}: %v", field, err)
	}
	return &ref, nil
}

func toJSON(v any) types.JSON {
	if v == nil {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return types.JSON(b)
}

func pagePosition(o graphql.Omittable[*model.PagePositionInput]) *content.Position {
	p := o.Value()
	if p == nil {
		return nil
	}
	return &content.Position{Before: str(p.Before), After: str(p.After)}
}

func str(o graphql.Omittable[*string]) string {
	if v := o.Value(); v != nil {
		return *v
	}
	return ""
}

// deref returns *p, or "" for nil.
func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// mapOpt turns an omittable JSON object into an option: null removes.
func mapOpt(field string, o graphql.Omittable[types.JSON]) (catalog.Opt[map[string]any], error) {
	if !o.IsSet() {
		return catalog.Opt[map[string]any]{}, nil
	}
	m, err := jsonObject(field, o.Value())
	if err != nil {
		return catalog.Opt[map[string]any]{}, err
	}
	return catalog.Some(m), nil
}

// pageContent returns the Markdown or document an input gives, checking
// that it gives at most one.
func pageContent(md graphql.Omittable[*string], doc graphql.Omittable[types.JSON]) (*string, *document.Document, error) {
	m := md.Value()
	raw := doc.Value()
	hasDoc := len(raw) > 0 && string(raw) != "null"
	if m != nil && hasDoc {
		return nil, nil, apierr.Invalid("markdown", "Give markdown or document, not both")
	}
	if hasDoc {
		d, err := parseDocument("document", raw)
		return nil, d, err
	}
	return m, nil, nil
}

func (r *Resolver) createPageOp(in model.CreatePageInput) (content.Op, error) {
	op := &content.CreatePage{
		Parent: str(in.Parent), Position: pagePosition(in.Position), Title: in.Title,
		Slug: str(in.Slug), Emoji: str(in.Emoji), Description: str(in.Description),
	}
	if t := in.Type.Value(); t != nil {
		op.Type = string(*t)
	}
	if h := in.Hidden.Value(); h != nil {
		op.Hidden = *h
	}
	var err error
	if op.Markdown, op.Document, err = pageContent(in.Markdown, in.Document); err != nil {
		return nil, err
	}
	if op.Link, err = contentRef("target", in.Target.Value()); err != nil {
		return nil, err
	}
	if op.Layout, err = jsonObject("layout", in.Layout.Value()); err != nil {
		return nil, err
	}
	if op.Cover, err = jsonObject("cover", in.Cover.Value()); err != nil {
		return nil, err
	}
	if op.Variables, err = jsonObject("variables", in.Variables.Value()); err != nil {
		return nil, err
	}
	if err := createPageProps(op, in); err != nil {
		return nil, err
	}
	return op, nil
}

func (r *Resolver) updatePageOp(in model.UpdatePageInput) (content.Op, error) {
	op := &content.UpdatePage{
		Page: in.Page, Title: in.Title.Value(), Slug: in.Slug.Value(), Emoji: in.Emoji.Value(),
		Description: in.Description.Value(), Hidden: in.Hidden.Value(),
	}
	var err error
	if op.Markdown, op.Document, err = pageContent(in.Markdown, in.Document); err != nil {
		return nil, err
	}
	if op.Link, err = contentRef("target", in.Target.Value()); err != nil {
		return nil, err
	}
	if op.Layout, err = mapOpt("layout", in.Layout); err != nil {
		return nil, err
	}
	if op.Cover, err = mapOpt("cover", in.Cover); err != nil {
		return nil, err
	}
	if op.Variables, err = mapOpt("variables", in.Variables); err != nil {
		return nil, err
	}
	if err := updatePageProps(op, in); err != nil {
		return nil, err
	}
	return op, nil
}

func uploadOp(in model.UploadFileInput) (content.Op, error) {
	if in.File.File == nil {
		return nil, apierr.Invalid("file", "Attach the file to upload")
	}
	data, err := io.ReadAll(io.LimitReader(in.File.File, content.MaxFileSize+1))
	if err != nil {
		return nil, apierr.Invalid("file", "The upload could not be read")
	}
	if len(data) > content.MaxFileSize {
		return nil, apierr.New(apierr.TooLarge, "Files may hold at most %d bytes", content.MaxFileSize)
	}
	name := in.File.Filename
	if n := in.Name.Value(); n != nil {
		name = *n
	}
	ct := in.File.ContentType
	if ct == "application/octet-stream" {
		ct = ""
	}
	return &content.UploadFile{File: str(in.Replace), Name: name, ContentType: ct, Data: data}, nil
}

// edit applies one op to a change request, made against its content at
// revision ("": whatever it is), and presents the outcome.
func (r *Resolver) edit(ctx context.Context, crID, revision string, op content.Op, wantFile bool) (*model.ContentEditPayload, error) {
	res, err := r.Content.EditAt(ctx, crID, revision, op)
	if err != nil {
		return nil, err
	}
	forgetSpace(ctx, res.ChangeRequest.SpaceID)
	rev, err := r.Content.Revision(ctx, res.Revision)
	if err != nil {
		return nil, err
	}
	out := &model.ContentEditPayload{ChangeRequest: res.ChangeRequest, Revision: rev, Changed: res.Changed}
	if id := res.IDs[0]; id != "" {
		// A deleted page or file is not in the revision to present.
		_, deletedFile := op.(*content.DeleteFile)
		if wantFile && !deletedFile {
			if out.File, err = r.Content.File(ctx, res.Revision, id); err != nil {
				return nil, err
			}
		} else if _, isDelete := op.(*content.DeletePage); !isDelete && !wantFile {
			if out.Page, err = r.Content.Page(ctx, res.Revision, id); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// mergeResult presents the outcome of a merge or an update.
func mergeResult(res *content.MergeResult) *model.MergeResult {
	out := &model.MergeResult{Result: model.MergeOutcome(res.Result), ChangeRequest: res.ChangeRequest, Conflicts: []*model.MergeConflict{}}
	if res.Revision != "" {
		rev := res.Revision
		out.Revision = &rev
	}
	for _, c := range res.Conflicts {
		mc := &model.MergeConflict{Kind: c.Kind, Message: c.Message}
		if c.Page != "" {
			mc.Page = &c.Page
		}
		if c.File != "" {
			mc.File = &c.File
		}
		if c.Variable != "" {
			mc.Variable = &c.Variable
		}
		if c.ReusableContent != "" {
			mc.ReusableContent = &c.ReusableContent
		}
		out.Conflicts = append(out.Conflicts, mc)
	}
	return out
}

// markdownError names field in an error of document.FromMarkdown, whose
// messages speak of "markdown".
func markdownError(field string, err error) error {
	msg := err.Error()
	if e, ok := apierr.As(err); ok {
		msg = e.Message
	}
	if rest, ok := strings.CutPrefix(msg, "markdown"); ok {
		msg = field + rest
	}
	return apierr.Invalid(field, "%s", msg)
}
