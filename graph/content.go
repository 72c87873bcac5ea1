package graph

import (
	"context"
	"fmt"
	"quire/graph/connections"

	"quire/ent"
	"quire/graph/model"
	"quire/internal/apierr"
	"quire/internal/catalog"
	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/loaders"
	"quire/internal/types"
)

// Downloads makes the signed, expiring links that Quire serves for file
// bytes and PDFs.
type Downloads interface {
	FileURL(revisionID, fileID string) string
	PDFURL(revisionID, title, pageID string) string
}

// contentSpace returns a space the caller may see and on which it has at
// least need (the content engine's rule).
func (r *Resolver) contentSpace(ctx context.Context, id string, need types.Role) (*ent.Space, error) {
	return r.Content.SpaceFor(ctx, id, need)
}

// changeRequestFor returns a change request of a space on which the caller
// has at least need.
func (r *Resolver) changeRequestFor(ctx context.Context, id string, need types.Role) (*ent.ChangeRequest, *ent.Space, error) {
	return r.Content.ChangeRequestFor(ctx, id, need)
}

// spaceChangeRequest finds a change request of a space by id or number.
func (r *Resolver) spaceChangeRequest(ctx context.Context, sp *ent.Space, id *string, number *int) (*ent.ChangeRequest, error) {
	return r.Content.SpaceChangeRequest(ctx, sp.ID, id, number)
}

// revisionFor reads a revision of a space the caller may read.
func (r *Resolver) revisionFor(ctx context.Context, id string) (*content.Revision, error) {
	return r.Content.RevisionFor(ctx, id)
}

// spaceContent reads a space's current content.
func (r *Resolver) spaceContent(ctx context.Context, sp *ent.Space) (*content.Revision, error) {
	return r.Content.SpaceContent(ctx, sp.ID)
}

// forgetSpace drops a space from the request's cache after a write changed
// it (its revision or counters), so later fields read it again.
func forgetSpace(ctx context.Context, id string) {
	loaders.For(ctx).SpaceByID.Clear(ctx, id)
}

func (r *Resolver) changeRequestConnection(ctx context.Context, items []*ent.ChangeRequest, args catalog.PageArgs) (*model.ChangeRequestConnection, error) {
	p, err := content.ViewChangeRequests(ctx, items, args)
	if err != nil {
		return nil, err
	}
	return connections.Of[model.ChangeRequestConnection](p), nil
}

// ReadLinkTargets reads, a kind at a time, the spaces (with what their
// permissions need), collections and users that links point at, so that
// presenting a link report reads the request's caches instead of loading
// per link. A target that does not exist is no error here: its link is
// broken, and shown so where it is presented.
// Errors: whatever reading the targets failed with (Internal, Timeout).
func (r *Resolver) ReadLinkTargets(ctx context.Context, links []*content.Link) error {
	l := loaders.For(ctx)
	if l == nil {
		return nil
	}
	var spaces, collections, users []string
	for _, link := range links {
		if link.OpenAPISpec != "" && r.OpenAPI != nil {
			r.OpenAPI.Queue(ctx, link.OpenAPISpec)
		}
		switch ref := link.Ref; ref.Kind {
		case document.RefSpace:
			spaces = append(spaces, ref.Space)
		case document.RefCollection:
			collections = append(collections, ref.Collection)
		case document.RefUser:
			users = append(users, ref.User)
		}
	}
	if err := catalog.ReadSpaces(ctx, spaces); err != nil {
		return fmt.Errorf("read the spaces links point at: %w", err)
	}
	// Their published URLs too: a report presents each target space.
	if err := r.Sites.ReadPublications(ctx, spaces); err != nil {
		return fmt.Errorf("read the sites publishing the spaces links point at: %w", err)
	}
	if len(collections) > 0 {
		_, errs := l.CollectionByID.Fetch(ctx, collections)
		if err := batchFailure(errs); err != nil {
			return fmt.Errorf("read the collections links point at: %w", err)
		}
	}
	if len(users) > 0 {
		_, errs := l.UserByID.Fetch(ctx, users)
		if err := batchFailure(errs); err != nil {
			return fmt.Errorf("read the users links point at: %w", err)
		}
	}
	return nil
}

// batchFailure is the first of a batch's errors that is not a missing key.
func batchFailure(errs []error) error {
	for _, err := range errs {
		if err != nil && apierr.CodeOf(err) != apierr.NotFound {
			return err
		}
	}
	return nil
}

func changeRequestFilter(status []model.ChangeRequestStatus, creator, contributor *string, orderBy *model.ChangeRequestOrderBy, requestedReviewer *string) content.ListChangeRequests {
	f := content.ListChangeRequests{}
	for _, s := range status {
		f.Status = append(f.Status, string(s))
	}
	if creator != nil {
		f.Creator = *creator
	}
	if contributor != nil {
		f.Contributor = *contributor
	}
	if orderBy != nil {
		f.OrderBy = string(*orderBy)
	}
	if requestedReviewer != nil {
		f.RequestedReviewer = *requestedReviewer
	}
	return f
}

// organizationChangeRequests lists the change requests of every space of
// an organization the caller may read.
func (r *Resolver) organizationChangeRequests(ctx context.Context, orgID string, f content.ListChangeRequests) ([]*ent.ChangeRequest, error) {
	return r.Content.OrganizationChangeRequests(ctx, orgID, f)
}
