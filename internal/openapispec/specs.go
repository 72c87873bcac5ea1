package openapispec

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"unicode/utf8"

	entsql "entgo.io/ent/dialect/sql"

	"quire/ent"
	"quire/ent/openapispec"
	"quire/ent/openapispecblob"
	"quire/ent/openapispecfile"
	"quire/ent/openapispecversion"
	"quire/internal/apierr"
	"quire/internal/auth"
	"quire/internal/catalog"
	"quire/internal/jobs"
	"quire/internal/netpolicy"
	"quire/internal/types"
)

// Source is where a specification is read from: exactly one of URL and
// Text.
type Source struct {
	URL  *string
	Text *string
}

// Specs lists an organization's specifications, oldest first.
// Errors: NotFound (the organization, to those who are not members).
func (s *Service) Specs(ctx context.Context, orgID string) ([]*ent.OpenAPISpec, error) {
	if _, err := access(ctx, orgID); err != nil {
		return nil, err
	}
	all, err := s.Client.OpenAPISpec.Query().Where(openapispec.OrganizationID(orgID)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("list OpenAPI specifications: %w", err)
	}
	sort.Slice(all, func(i, j int) bool { return SpecLess(all[i], all[j]) })
	for _, sp := range all {
		s.prime(ctx, sp)
	}
	return all, nil
}

// SpecLess orders specifications by creation time, then id.
func SpecLess(a, b *ent.OpenAPISpec) bool {
	if !a.CreatedAt.Equal(b.CreatedAt) {
		return a.CreatedAt.Before(b.CreatedAt)
	}
	return a.ID < b.ID
}

// Spec returns the specification of an organization with a slug.
// Errors: NotFound (the organization to non-members; the specification).
func (s *Service) Spec(ctx context.Context, orgID, slug string) (*ent.OpenAPISpec, error) {
	if _, err := access(ctx, orgID); err != nil {
		return nil, err
	}
	sp, err := s.loaders(ctx).bySlug.Load(ctx, slugKey(orgID, slug))()
	if apierr.CodeOf(err) == apierr.NotFound {
		return nil, notFound(slug)
	}
	return sp, err
}

// SpecByID returns a specification the caller may see, by id.
// Errors: NotFound.
func (s *Service) SpecByID(ctx context.Context, id string) (*ent.OpenAPISpec, error) {
	sp, err := s.loaders(ctx).byID.Load(ctx, id)()
	if apierr.CodeOf(err) == apierr.NotFound {
		return nil, apierr.NotFoundf("No matching OpenAPI specification found for id %q", id)
	}
	if err != nil {
		return nil, err
	}
	if _, err := access(ctx, sp.OrganizationID); err != nil {
		// Not the organization's NotFound: it would name it.
		return nil, apierr.NotFoundf("No matching OpenAPI specification found for id %q", id)
	}
	return sp, nil
}

// SpecsSeen returns which of the slugs name a specification of the
// organization the caller may see, in one statement for all of them.
func (s *Service) SpecsSeen(ctx context.Context, orgID string, slugs []string) (map[string]*ent.OpenAPISpec, error) {
	out := map[string]*ent.OpenAPISpec{}
	if len(slugs) == 0 {
		return out, nil
	}
	if _, err := access(ctx, orgID); err != nil {
		if apierr.CodeOf(err) == apierr.NotFound {
			return out, nil
		}
		return nil, err
	}
	keys := make([]string, len(slugs))
	for i, slug := range slugs {
		keys[i] = slugKey(orgID, slug)
	}
	got, errs := s.loaders(ctx).bySlug.LoadMany(ctx, keys)()
	for i, sp := range got {
		var err error
		if errs != nil {
			err = errs[i]
		}
		switch {
		case err == nil && sp != nil:
			out[slugs[i]] = sp
		case err != nil && apierr.CodeOf(err) != apierr.NotFound:
			return nil, err
		}
	}
	return out, nil
}

// CreateInput creates a specification.
type CreateInput struct {
	Organization string
	Slug         string
	Source       Source
}

// Create creates a specification and asks for its processing.
// Errors: NotFound, Forbidden, BadRequest (slug, source; a slug in use).
func (s *Service) Create(ctx context.Context, in CreateInput) (*ent.OpenAPISpec, error) {
	if err := s.writable(ctx, in.Organization, "create"); err != nil {
		return nil, err
	}
	if err := checkSlug("slug", in.Slug); err != nil {
		return nil, err
	}
	src, err := s.checkSource(in.Source)
	if err != nil {
		return nil, err
	}
	var written *ent.OpenAPISpec
	err = catalog.WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		sp, err := s.create(ctx, tx, in.Organization, in.Slug, src)
		if ent.IsConstraintError(err) {
			return slugTaken(in.Slug)
		}
		written = sp
		return err
	})
	if err != nil {
		return nil, err
	}
	return s.keep(ctx, written), nil
}

// Put sets the source of the specification with a slug, creating it when
// there is none, and asks for its processing; it reports whether it
// created it. Setting the same source again processes it again (a URL may
// serve new content).
// Errors: NotFound, Forbidden, BadRequest.
func (s *Service) Put(ctx context.Context, orgID, slug string, in Source) (*ent.OpenAPISpec, bool, error) {
	if err := s.writable(ctx, orgID, "change"); err != nil {
		return nil, false, err
	}
	if err := checkSlug("specSlug", slug); err != nil {
		return nil, false, err
	}
	src, err := s.checkSource(in)
	if err != nil {
		return nil, false, err
	}
	var written *ent.OpenAPISpec
	var created bool
	put := func(tx *ent.Tx) error {
		written, created = nil, false
		u := tx.OpenAPISpec.Update().Where(openapispec.OrganizationID(orgID), openapispec.Slug(slug)).
			AddGeneration(1).SetProcessingState(StatePending).SetUpdatedAt(s.Now())
		src.set(u.Mutation())
		n, err := u.Save(ctx)
		if err != nil {
			return fmt.Errorf("update OpenAPI specification: %w", err)
		}
		if n == 0 {
			sp, err := s.create(ctx, tx, orgID, slug, src)
			if err != nil {
				return err
			}
			written, created = sp, true
			return nil
		}
		sp, err := tx.OpenAPISpec.Query().Where(openapispec.OrganizationID(orgID), openapispec.Slug(slug)).Only(ctx)
		if err != nil {
			return fmt.Errorf("read OpenAPI specification: %w", err)
		}
		written = sp
		return s.enqueue(ctx, tx, sp)
	}
	err = catalog.WithTx(ctx, s.Client, put)
	if ent.IsConstraintError(err) {
		// Created by another request in the meantime: update it.
		err = catalog.WithTx(ctx, s.Client, put)
	}
	if err != nil {
		return nil, false, err
	}
	return s.keep(ctx, written), created, nil
}

// create inserts a specification and its processing job in tx.
func (s *Service) create(ctx context.Context, tx *ent.Tx, orgID, slug string, src source) (*ent.OpenAPISpec, error) {
	exists, err := tx.OpenAPISpec.Query().Where(openapispec.OrganizationID(orgID), openapispec.Slug(slug)).Exist(ctx)
	if err != nil {
		return nil, fmt.Errorf("check slug: %w", err)
	}
	if exists {
		return nil, slugTaken(slug)
	}
	c := tx.OpenAPISpec.Create().SetOrganizationID(orgID).SetSlug(slug)
	if v := auth.Viewer(ctx); v != nil {
		c.SetCreatedBy(v.ID)
	}
	now := s.Now()
	c.SetCreatedAt(now).SetUpdatedAt(now)
	src.set(c.Mutation())
	sp, err := c.Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("create OpenAPI specification: %w", err)
	}
	return sp, s.enqueue(ctx, tx, sp)
}

// enqueue asks for the processing of the specification's current
// generation.
func (s *Service) enqueue(ctx context.Context, tx *ent.Tx, sp *ent.OpenAPISpec) error {
	by := ""
	if v := auth.Viewer(ctx); v != nil {
		by = v.ID
	}
	_, err := s.Jobs.Enqueue(ctx, tx, jobs.Request{
		Kind: Kind, Args: jobArgs{Spec: sp.ID, Generation: sp.Generation},
		Organization: sp.OrganizationID, Subject: Subject(sp.ID), CreatedBy: by,
	})
	return err
}

// Subject is what the jobs of a specification are listed under.
func Subject(specID string) string { return "openapi-spec:" + specID }

func slugTaken(slug string) error {
	return apierr.Invalid("slug", "slug %q is already used by another OpenAPI specification of the organization", slug)
}

// SetVisibility makes a specification private or public.
// Errors: NotFound, Forbidden, BadRequest.
func (s *Service) SetVisibility(ctx context.Context, id, visibility string) (*ent.OpenAPISpec, error) {
	if !contains(Visibilities, visibility) {
		return nil, apierr.Invalid("visibility", "visibility must be private or public")
	}
	sp, err := s.SpecByID(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := s.writable(ctx, sp.OrganizationID, "change"); err != nil {
		return nil, err
	}
	var written *ent.OpenAPISpec
	err = catalog.WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		var err error
		written, err = tx.OpenAPISpec.UpdateOneID(id).SetVisibility(visibility).SetUpdatedAt(s.Now()).Save(ctx)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("update OpenAPI specification: %w", err)
	}
	return s.keep(ctx, written), nil
}

// Delete deletes a specification with its versions; it reports false when
// there was none the caller may see. References to it become broken.
// Errors: Forbidden.
func (s *Service) Delete(ctx context.Context, id string) (bool, error) {
	sp, err := s.SpecByID(ctx, id)
	if apierr.CodeOf(err) == apierr.NotFound {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if err := s.writable(ctx, sp.OrganizationID, "delete"); err != nil {
		return false, err
	}
	var blobs []string
	deleted := false
	err = catalog.WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		blobs, deleted = nil, false
		ofSpec := openapispecfile.HasVersionWith(openapispecversion.SpecID(id))
		var err error
		blobs, err = tx.OpenAPISpecFile.Query().Where(ofSpec).Unique(true).Select(openapispecfile.FieldBlobID).Strings(ctx)
		if err != nil {
			return fmt.Errorf("list files: %w", err)
		}
		if _, err := tx.OpenAPISpecFile.Delete().Where(ofSpec).Exec(ctx); err != nil {
			return fmt.Errorf("delete files: %w", err)
		}
		if _, err := tx.OpenAPISpecVersion.Delete().Where(openapispecversion.SpecID(id)).Exec(ctx); err != nil {
			return fmt.Errorf("delete versions: %w", err)
		}
		n, err := tx.OpenAPISpec.Delete().Where(openapispec.ID(id)).Exec(ctx)
		if err != nil {
			return fmt.Errorf("delete OpenAPI specification: %w", err)
		}
		deleted = n > 0
		return nil
	})
	if err != nil {
		return false, err
	}
	s.forget(ctx, sp)
	s.collectBlobs(ctx, blobs)
	return deleted, nil
}

// collectBlobs deletes the blobs no file holds any more, in a transaction
// of its own after the delete that freed them. A version being stored at
// the same time keeps a blob it holds (its file's reference blocks the
// delete, which then fails, leaving the blob); such a failure is only
// logged: the blob is left for the next delete that frees it.
func (s *Service) collectBlobs(ctx context.Context, blobs []string) {
	for len(blobs) > 0 {
		part := blobs[:min(len(blobs), chunk)]
		blobs = blobs[len(part):]
		err := catalog.WithTx(context.WithoutCancel(ctx), s.Client, func(tx *ent.Tx) error {
			_, err := tx.OpenAPISpecBlob.Delete().Where(openapispecblob.IDIn(part...), func(sel *entsql.Selector) {
				d := entsql.Dialect(sel.Dialect())
				f := d.Table(openapispecfile.Table)
				sel.Where(entsql.Not(entsql.Exists(d.Select(f.C(openapispecfile.FieldID)).From(f).
					Where(entsql.ColumnsEQ(f.C(openapispecfile.FieldBlobID), sel.C(openapispecblob.FieldID))))))
			}).Exec(ctx)
			return err
		})
		if err != nil {
			s.Log.Warn("OpenAPI blobs left after a delete", "count", len(part), "error", err.Error())
		}
	}
}

// writable checks that the caller may change the organization's
// specifications.
// Errors: NotFound, Forbidden.
func (s *Service) writable(ctx context.Context, orgID, verb string) error {
	a, err := access(ctx, orgID)
	if err != nil {
		return err
	}
	if !a.Edit {
		return apierr.Forbiddenf("You need the create or admin role to %s OpenAPI specifications", verb)
	}
	return nil
}

// keep caches a specification as its write left it for the rest of the
// request, and returns it. What the write's caller is answered is that
// row, not one read after the commit, which its processing job may have
// changed already.
func (s *Service) keep(ctx context.Context, written *ent.OpenAPISpec) *ent.OpenAPISpec {
	sp := written.Unwrap()
	s.prime(ctx, sp)
	s.loaders(ctx).versionsOf.Clear(ctx, sp.ID)
	return sp
}

// source is a checked Source.
type source struct {
	url  *url.URL
	text *string
}

// set writes the source into a specification row, clearing the other
// kind.
func (src source) set(m *ent.OpenAPISpecMutation) {
	if src.url != nil {
		m.SetSourceURL(src.url.String())
		m.ClearSourceText()
	} else {
		m.SetSourceText(*src.text)
		m.ClearSourceURL()
	}
}

func checkSlug(field, slug string) error {
	// Phrased as the REST door's checks of the documented slug are, so
	// that both doors refuse a slug alike.
	if slug == "" || len(slug) > MaxSlug {
		return apierr.Invalid(field, "%s must be between 1 and %d characters long", field, MaxSlug)
	}
	if !slugPattern.MatchString(slug) {
		return apierr.Invalid(field, "%s must be letters, digits and single dashes between them, such as petstore-v2", field)
	}
	return nil
}

// checkSource checks a source: exactly one of an http or https URL (at
// most MaxURL characters, without credentials) and a non-empty text (at
// most MaxTextBytes). A host spelled as an odd number (netpolicy.OddHost)
// is refused here, and unless private addresses are allowed, a URL naming
// localhost or an inside address literally; names that resolve to one are
// refused when fetched.
func (s *Service) checkSource(in Source) (source, error) {
	switch {
	case in.URL != nil && in.Text != nil:
		return source{}, apierr.Invalid("source", "source must have either url or text, not both")
	case in.URL == nil && in.Text == nil:
		return source{}, apierr.Invalid("source", "source must have url (where to fetch the specification) or text (the specification itself)")
	case in.Text != nil:
		t := *in.Text
		if t == "" {
			return source{}, apierr.Invalid("source.text", "source.text must be at least 1 character long")
		}
		if strings.TrimSpace(t) == "" {
			return source{}, apierr.Invalid("source.text", "source.text holds only white space, not a specification")
		}
		if len(t) > MaxTextBytes {
			return source{}, apierr.Invalid("source.text", "source.text is larger than %d bytes, the most Quire takes as text; give a URL instead", MaxTextBytes)
		}
		if !utf8.ValidString(t) {
			return source{}, apierr.Invalid("source.text", "source.text is not valid UTF-8 text")
		}
		return source{text: &t}, nil
	}
	raw := strings.TrimSpace(*in.URL)
	if utf8.RuneCountInString(raw) > MaxURL {
		return source{}, apierr.Invalid("source.url", "source.url must be at most %d characters long", MaxURL)
	}
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || u.Host == "" || u.Opaque != "" {
		return source{}, apierr.Invalid("source.url", "source.url must be an absolute http or https URL")
	}
	u.Scheme = strings.ToLower(u.Scheme)
	if u.Scheme != "http" && u.Scheme != "https" {
		return source{}, apierr.Invalid("source.url", "source.url must be an http or https URL")
	}
	if u.User != nil {
		return source{}, apierr.Invalid("source.url", "source.url must not carry credentials (user:password@): they would be shown to every member who reads the specification")
	}
	// Numeric spellings such as 2130706433 or 127.1 are refused even when
	// private addresses are allowed: no source needs them, and they are
	// how a URL hides an inside address from a reader.
	if netpolicy.OddHost(u.Hostname()) {
		return source{}, apierr.Invalid("source.url", "source.url names the host %q, an address spelled in a form Quire does not take: %s", u.Hostname(), netpolicy.OddHostAdvice)
	}
	if !s.cfg.FetchPrivate && netpolicy.InsideHost(u.Hostname()) {
		return source{}, apierr.Invalid("source.url", "source.url names %s, a loopback, private or link-local address, where Quire does not fetch from (an operator may allow it with --openapi-fetch-private)", u.Hostname())
	}
	u.Fragment, u.RawFragment = "", ""
	return source{url: u}, nil
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// errStale is what a processing transaction returns when the
// specification's source changed since its job was asked for.
var errStale = errors.New("the specification changed since this processing was asked for")

// specError is a problem to record on a specification.
func specError(code, format string, args ...any) types.SpecError {
	return types.SpecError{Code: code, Message: fmt.Sprintf(format, args...)}
}
