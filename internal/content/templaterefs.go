package content

import (
	"context"
	"fmt"
	"slices"
	"sort"

	"quire/ent"
	"quire/ent/user"
	"quire/internal/apierr"
	"quire/internal/authz"
	"quire/internal/document"
)

// parseTemplate finds a template and checks its params (see CheckParams).
func parseTemplate(templateID string, refs map[string]document.ContentRef) (Template, map[string]document.ContentRef, error) {
	t, err := TemplateByID(templateID)
	if err != nil {
		return Template{}, nil, err
	}
	params, err := t.CheckParams(refs)
	if err != nil {
		return Template{}, nil, err
	}
	return t, params, nil
}

// templateOps checks that the params of a template name what the caller
// may see, for content that derives from revisionID, and returns the edits
// that apply it.
func (s *Service) templateOps(ctx context.Context, revisionID string, t Template, params map[string]document.ContentRef) ([]Op, error) {
	if err := s.checkTemplateTargets(ctx, revisionID, params); err != nil {
		return nil, err
	}
	ops, err := t.ops(params)
	if err != nil {
		return nil, fmt.Errorf("template %s: %w", t.ID, err)
	}
	return ops, nil
}

// checkTemplateTargets refuses template params that name a user, a space
// or a page the caller of ctx may not see exactly as those that name
// nothing: both are a BadRequest on the param, with the same message but
// for the id. A space must be live; a page must be in the current content
// of the space its reference names or, without one, in revisionID, the
// content the template goes into.
// An OpenAPI specification must be one of the organization of the
// content that the caller may see.
// Errors: BadRequest (field params.contentRefs.<name>).
func (s *Service) checkTemplateTargets(ctx context.Context, revisionID string, params map[string]document.ContentRef) error {
	names := make([]string, 0, len(params))
	var users, spaces, specs []string
	for name, r := range params {
		names = append(names, name)
		switch r.Kind {
		case document.RefUser:
			users = append(users, r.User)
		case document.RefSpace, document.RefPage:
			if r.Space != "" {
				spaces = append(spaces, r.Space)
			}
		case document.RefOpenAPI:
			specs = append(specs, r.Spec)
		}
	}
	var seenSpecs map[string]*ent.OpenAPISpec
	if len(specs) > 0 && s.OpenAPI != nil {
		row, err := s.RevisionRow(ctx, revisionID)
		if err != nil {
			return err
		}
		if seenSpecs, err = s.specsOf(ctx, row.SpaceID, uniq(specs)); err != nil {
			return err
		}
	}
	sort.Strings(names)
	seenSpaces, err := s.Spaces.SpacesSeen(ctx, spaces)
	if err != nil {
		return err
	}
	seenUsers, err := s.usersSeen(ctx, users)
	if err != nil {
		return err
	}
	for _, name := range names {
		r, field := params[name], paramField(name)
		missing := func(kind, id string) error {
			return apierr.Invalid(field, "%s: no matching %s found for id %q", field, kind, id)
		}
		var sp *ent.Space
		if r.Space != "" && (r.Kind == document.RefSpace || r.Kind == document.RefPage) {
			if sp = seenSpaces[r.Space]; sp == nil || sp.DeletedAt != nil {
				return missing("space", r.Space)
			}
		}
		switch r.Kind {
		case document.RefUser:
			if !seenUsers[r.User] {
				return missing("user", r.User)
			}
		case document.RefOpenAPI:
			if s.OpenAPI != nil && seenSpecs[r.Spec] == nil {
				return apierr.Invalid(field, "%s: no matching OpenAPI specification found for slug %q in the organization", field, r.Spec)
			}
		case document.RefPage:
			rev := revisionID
			if sp != nil {
				rev = sp.RevisionID
			}
			ok, err := s.hasPage(ctx, rev, r.Page)
			if err != nil {
				return err
			}
			if !ok {
				return missing("page", r.Page)
			}
		}
	}
	return nil
}

// usersSeen returns which of the users exist and may be seen by the caller.
func (s *Service) usersSeen(ctx context.Context, ids []string) (map[string]bool, error) {
	if len(ids) == 0 {
		return map[string]bool{}, nil
	}
	var known []string
	for part := range slices.Chunk(uniq(ids), chunk) {
		found, err := s.Client.User.Query().Where(user.IDIn(part...)).IDs(ctx)
		if err != nil {
			return nil, fmt.Errorf("check users: %w", err)
		}
		known = append(known, found...)
	}
	return authz.UsersSeen(ctx, known)
}

// hasPage reports whether a revision holds a page.
func (s *Service) hasPage(ctx context.Context, revisionID, pageID string) (bool, error) {
	row, err := s.RevisionRow(ctx, revisionID)
	if err != nil {
		return false, err
	}
	_, ok, err := itemVersion(ctx, s.Client, row, kindPage, pageID)
	return ok, err
}
