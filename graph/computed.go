package graph

import (
	"context"
	"unicode/utf8"

	"quire/internal/apierr"
	"quire/internal/computed"
	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/loaders"
	"quire/internal/types"
)

// computedPage computes the document of a computed page from its
// organization's specifications: the page's space names the organization,
// so a page computes only from that organization's specifications. The
// space and the specifications that a request's pages read load in a
// statement per kind, whatever the number of pages.
func (r *Resolver) computedPage(ctx context.Context, p *content.Page) (*computed.Result, error) {
	sp, err := loaders.For(ctx).SpaceByID.Load(ctx, p.Space)()
	if err != nil {
		return nil, err
	}
	return r.computedEngine().Compute(ctx, sp.OrganizationID, p.Computed, p.ComputedSeed)
}

// computedSeed is the seed of a computed page's document: its stored
// seed mixed with the versions of the specifications it reads.
func (r *Resolver) computedSeed(ctx context.Context, p *content.Page) (*string, error) {
	if p.Computed == nil {
		return optional(p.ComputedSeed), nil
	}
	sp, err := loaders.For(ctx).SpaceByID.Load(ctx, p.Space)()
	if err != nil {
		return nil, err
	}
	seed, err := r.computedEngine().Seed(ctx, sp.OrganizationID, p.Computed, p.ComputedSeed)
	if err != nil {
		return nil, err
	}
	return &seed, nil
}

// computedEngine is the engine of computed pages; a Resolver built
// without one (in tests of other parts) gets one over its specifications.
func (r *Resolver) computedEngine() *computed.Service {
	r.computedOnce.Do(func() {
		if r.Computed == nil {
			r.Computed = computed.New(r.OpenAPI)
		}
	})
	return r.Computed
}

// wantComputed reports whether a read asks for a computed page's
// generated document (the default) rather than the page as stored.
func wantComputed(computed *bool) bool { return computed == nil || *computed }

// storedOrComputed is the document of a page: generated for a computed
// page when asked for, else as stored (a computed page stores none).
func (r *Resolver) storedOrComputed(ctx context.Context, p *content.Page, computed *bool) (*document.Document, bool, error) {
	if p.Computed == nil || !wantComputed(computed) {
		return nil, false, nil
	}
	res, err := r.computedPage(ctx, p)
	if err != nil {
		return nil, false, err
	}
	return res.Document, true, nil
}

// MaxComputedSeed bounds the seed a computed source is read with.
const MaxComputedSeed = 256

// ComputedDocument computes the document a computed source generates for
// a space the caller may read, from the specifications of the space's
// organization, without a page (the REST getComputedDocument). The source
// is checked as a page's computed definition.
// Errors: NotFound (the space), BadRequest (source, seed).
func (r *Resolver) ComputedDocument(ctx context.Context, spaceID string, source types.JSON, seed string) (*document.Document, error) {
	sp, err := r.Query().Space(ctx, spaceID, nil)
	if err != nil {
		return nil, err
	}
	var def types.PageComputed
	ok, err := decodeStrict("source", computedShape, source, &def)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, apierr.Invalid("source", "source is required: %s", computedShape)
	}
	checked, err := content.CheckComputed("source", &def)
	if err != nil {
		return nil, err
	}
	if utf8.RuneCountInString(seed) > MaxComputedSeed {
		return nil, apierr.Invalid("seed", "seed is at most %d characters", MaxComputedSeed)
	}
	res, err := r.computedEngine().Compute(ctx, sp.OrganizationID, checked, seed)
	if err != nil {
		return nil, err
	}
	return res.Document, nil
}
