package rest

import (
	"context"
	"encoding/json"
	"fmt"

	"quire/graph"
	"quire/internal/apierr"
)

// The reads of reusable contents: of a space's current content, of a
// change request's, and of any revision of the space. They authorize as
// the page reads do: reading the revision needs read rights on its space.

func (a *API) reusableRoutes() []Route {
	const s = "/spaces/{spaceId}"
	reusables := a.reusableContents()
	byID := func(sc scopeFunc) Handler[CompatParams, *graph.ContentReusable] {
		return func(ctx context.Context, req *Request, _ *CompatParams) (*graph.ContentReusable, error) {
			_, rc, err := a.reusableContent(ctx, req, sc)
			return rc, err
		}
	}
	return []Route{
		route("GET", s+"/content/reusable-contents/{reusableContentId}", "Get a reusable content of a space's content", byID(a.spaceScope)).Present(reusables),
		route("GET", changeRequestPath+"/content/reusable-contents/{reusableContentId}", "Get a reusable content of a change request's content", byID(a.changeRequestScope)).Present(reusables),
		route("GET", s+"/revisions/{revisionId}/reusable-contents/{reusableContentId}", "Get a reusable content of a revision of a space", byID(a.revisionScope)).Present(reusables),
		route("GET", s+"/revisions/{revisionId}/reusable-contents/{reusableContentId}/document", "Get the document of a reusable content of a revision of a space", func(ctx context.Context, req *Request, in *ReusableDocumentParams) (json.RawMessage, error) {
			_, rc, err := a.reusableContent(ctx, req, a.revisionScope)
			if err != nil {
				return nil, err
			}
			eval := (&PageParams{Evaluated: in.Evaluated}).evaluation()
			deref := in.Dereferenced == "true" || in.Dereferenced == "reusable-contents"
			doc, err := a.r.ReusableContent().Document(ctx, rc, &eval, &deref)
			if err != nil {
				return nil, err
			}
			raw, err := json.Marshal(doc.D)
			if err != nil {
				return nil, fmt.Errorf("encode document of reusable content %s: %w", rc.ID, err)
			}
			return raw, nil
		}).Present(asIs[json.RawMessage]()),
	}
}

// revisionScope is a revision of the space of the path, which the caller
// may read.
func (a *API) revisionScope(ctx context.Context, req *Request) (*scope, error) {
	sp, err := a.r.Query().Space(ctx, req.Param("spaceId"), nil)
	if err != nil {
		return nil, err
	}
	rev, err := a.r.Query().Revision(ctx, req.Param("revisionId"))
	if err != nil {
		return nil, err
	}
	if rev.Space != sp.ID {
		return nil, apierr.NotFoundf("No revision %q in space %q", req.Param("revisionId"), sp.ID)
	}
	return &scope{space: sp, rev: rev}, nil
}

func (a *API) reusableContent(ctx context.Context, req *Request, sc scopeFunc) (*scope, *graph.ContentReusable, error) {
	s, err := sc(ctx, req)
	if err != nil {
		return nil, nil, err
	}
	id := req.Param("reusableContentId")
	rc, err := a.r.Revision().ReusableContent(ctx, s.rev, id)
	if err != nil {
		return nil, nil, err
	}
	if rc == nil {
		return nil, nil, apierr.NotFoundf("No reusable content %q in revision %q", id, s.rev.ID)
	}
	return s, rc, nil
}

// ReusableDocumentParams choose how a reusable content's document is read.
type ReusableDocumentParams struct {
	Evaluated    string `query:"evaluated" fold:"true" enum:"true,false,deterministic-only" doc:"Evaluate expressions and conditions: true (all), false (default, as written) or deterministic-only (only those over variables and literals)."`
	Dereferenced string `query:"dereferenced" fold:"true" enum:"true,false,reusable-contents" doc:"true or reusable-contents: inline the reusable contents it embeds (at most 3 levels deep, never into themselves); false (default): keep the reusable-content blocks."`
}

func presentReusable(rc *graph.ContentReusable) ReusableContent {
	return ReusableContent{ID: rc.ID, Title: rc.Title, Document: rc.DocumentHash, Git: gitBlob(rc.Git)}
}

func (a *API) reusableContents() *Kind[*graph.ContentReusable, *ReusableContent] {
	return presentsContent(func(_ context.Context, rc *graph.ContentReusable) (*ReusableContent, error) {
		out := presentReusable(rc)
		return &out, nil
	}, func(rc *ReusableContent) { rc.Git = nil })
}

// reusableList presents a revision's reusable contents; none is an empty
// list.
func reusableList(list []*graph.ContentReusable) []ReusableContent {
	out := make([]ReusableContent, 0, len(list))
	for _, rc := range list {
		out = append(out, presentReusable(rc))
	}
	return out
}
