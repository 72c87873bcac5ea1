package graph

import (
	"context"

	"github.com/graph-gophers/dataloader/v7"

	"quire/graph/model"
	"quire/internal/apierr"
	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/evaluate"
	"quire/internal/loaders"
	"quire/internal/types"
)

// reusableEdit applies one op to the current content of a space, or to a
// change request's content made against its revision, exactly one of
// space and changeRequest being given, and presents the outcome.
func (r *Resolver) reusableEdit(ctx context.Context, space, changeRequest, revision *string, op content.Op) (*model.ReusableContentEditPayload, error) {
	if (space == nil) == (changeRequest == nil) {
		return nil, apierr.Invalid("space", "Give exactly one of space and changeRequest")
	}
	out := &model.ReusableContentEditPayload{}
	var revID, id string
	if space != nil {
		if revision != nil {
			return nil, apierr.Invalid("revision", "revision applies to the edits of a change request only")
		}
		res, err := r.Content.EditSpace(ctx, *space, op)
		if err != nil {
			return nil, err
		}
		forgetSpace(ctx, res.Space.ID)
		out.Space, out.Changed, revID, id = res.Space, res.Changed, res.Revision, res.IDs[0]
	} else {
		res, err := r.Content.EditAt(ctx, *changeRequest, deref(revision), op)
		if err != nil {
			return nil, err
		}
		forgetSpace(ctx, res.ChangeRequest.SpaceID)
		if out.Space, err = r.contentSpace(ctx, res.ChangeRequest.SpaceID, types.RoleRead); err != nil {
			return nil, err
		}
		out.ChangeRequest, out.Changed, revID, id = res.ChangeRequest, res.Changed, res.Revision, res.IDs[0]
	}
	rev, err := r.Content.Revision(ctx, revID)
	if err != nil {
		return nil, err
	}
	out.Revision = rev
	if _, deleted := op.(*content.DeleteReusableContent); !deleted && id != "" {
		if out.ReusableContent, err = r.Content.ReusableContent(ctx, revID, id); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// reusableContentOp builds the op of a create or an update input.
func reusableContentOp(create *model.CreateReusableContentInput, update *model.UpdateReusableContentInput) (content.Op, error) {
	if create != nil {
		op := &content.CreateReusableContent{Title: create.Title}
		var err error
		op.Markdown, op.Document, err = pageContent(create.Markdown, create.Document)
		return op, err
	}
	op := &content.UpdateReusableContent{ReusableContent: update.ReusableContent, Title: update.Title.Value()}
	var err error
	op.Markdown, op.Document, err = pageContent(update.Markdown, update.Document)
	return op, err
}

// reusableDocument returns a reusable content's document, its embedded
// reusable contents inlined when dereferenced, evaluated as asked over the
// space's variables.
func (r *Resolver) reusableDocument(ctx context.Context, rc *content.ReusableContent, mode *model.PageEvaluation, dereferenced *bool) (*document.Document, error) {
	doc := rc.Document
	if doc == nil {
		var err error
		if doc, err = r.reusableDocumentLoader(ctx).Load(ctx, rc.DocumentHash)(); err != nil {
			return nil, err
		}
	}
	if doc == nil {
		doc = &document.Document{Data: map[string]any{}, Nodes: []document.Node{}}
	}
	if dereferenced != nil && *dereferenced {
		var err error
		if doc, err = r.Content.Dereference(ctx, rc.Revision, doc); err != nil {
			return nil, err
		}
	}
	if mode == nil || *mode == model.PageEvaluationNone {
		return doc, nil
	}
	row, err := r.revisionRow(ctx, rc.Revision)
	if err != nil {
		return nil, err
	}
	m := evaluate.All
	if *mode == model.PageEvaluationDeterministicOnly {
		m = evaluate.DeterministicOnly
	}
	return evaluate.Document(doc, evaluate.Env{Space: row.Variables}, m)
}

// reusableDocumentLoader loads the documents of reusable contents by hash
// for the request, one statement per batch.
func (r *Resolver) reusableDocumentLoader(ctx context.Context) *dataloader.Loader[string, *document.Document] {
	return loaders.Keep(loaders.For(ctx), "content.reusableDocuments", func() *dataloader.Loader[string, *document.Document] {
		return dataloader.NewBatchedLoader(func(ctx context.Context, keys []string) []*dataloader.Result[*document.Document] {
			docs, err := r.Content.ReusableDocuments(ctx, keys)
			out := make([]*dataloader.Result[*document.Document], len(keys))
			for i, k := range keys {
				out[i] = &dataloader.Result[*document.Document]{Data: docs[k], Error: err}
			}
			return out
		}, dataloader.WithWait[string, *document.Document](loaders.Wait))
	})
}

// revisionReusableContent reads a reusable content of a revision the
// caller got; nil when the revision does not hold it.
func (r *Resolver) revisionReusableContent(ctx context.Context, rev *content.Revision, id string) (*content.ReusableContent, error) {
	rc, err := r.Content.ReusableContent(ctx, rev.ID, id)
	if apierr.CodeOf(err) == apierr.NotFound {
		return nil, nil
	}
	return rc, err
}
