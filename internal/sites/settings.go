package sites

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"quire/ent"
	"quire/internal/adaptive"
	"quire/internal/apierr"
	"quire/internal/catalog"
	"quire/internal/customization"
	"quire/internal/loaders"
)

// Customization returns a site's customization settings: what its owners
// set, over the documented defaults.
// Errors: NotFound.
func (s *Service) Customization(ctx context.Context, orgID, siteID string) (customization.Settings, error) {
	st, err := s.Site(ctx, orgID, siteID)
	if err != nil {
		return customization.Settings{}, err
	}
	// Once per site and request; the settings are shared, read only.
	return loaders.Memo(ctx, st.ID, "settings", func() (customization.Settings, error) { return siteSettings(st) })
}

func siteSettings(st *ent.Site) (customization.Settings, error) {
	if st.Customization == nil || len(*st.Customization) == 0 {
		return customization.Defaults(), nil
	}
	set, err := customization.Decode(*st.Customization)
	if err != nil {
		return customization.Settings{}, fmt.Errorf("stored customization of site %s: %w", st.ID, err)
	}
	return set, nil
}

// PutCustomization replaces a site's customization settings. Keys the body
// leaves out take their defaults.
// Errors: NotFound, Forbidden, BadRequest.
func (s *Service) PutCustomization(ctx context.Context, orgID, siteID string, raw []byte) (customization.Settings, error) {
	set, err := customization.Decode(raw)
	if err != nil {
		return customization.Settings{}, err
	}
	st, err := s.writable(ctx, orgID, siteID)
	if err != nil {
		return customization.Settings{}, err
	}
	stored, err := customization.Marshal(set)
	if err != nil {
		return customization.Settings{}, fmt.Errorf("encode customization: %w", err)
	}
	if err := catalog.WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		return tx.Site.UpdateOneID(st.ID).SetCustomization(stored).Exec(ctx)
	}); err != nil {
		return customization.Settings{}, fmt.Errorf("store customization: %w", err)
	}
	if _, err := s.reload(ctx, st.ID); err != nil {
		return customization.Settings{}, err
	}
	return set, nil
}

// SiteSpaceCustomization returns the settings a site space shows: the
// site's, with the site space's overrides applied.
// Errors: NotFound.
func (s *Service) SiteSpaceCustomization(ctx context.Context, orgID, siteID, id string) (customization.Settings, error) {
	st, err := s.Site(ctx, orgID, siteID)
	if err != nil {
		return customization.Settings{}, err
	}
	ss, err := s.SiteSpace(ctx, orgID, siteID, id)
	if err != nil {
		return customization.Settings{}, err
	}
	return effective(st, ss)
}

func effective(st *ent.Site, ss *ent.SiteSpace) (customization.Settings, error) {
	base, err := siteSettings(st)
	if err != nil {
		return customization.Settings{}, err
	}
	if ss.Customization == nil || len(*ss.Customization) == 0 {
		return base, nil
	}
	over, err := customization.DecodeSpace(*ss.Customization)
	if err != nil {
		return customization.Settings{}, fmt.Errorf("stored customization of site space %s: %w", ss.ID, err)
	}
	return customization.Effective(base, &over), nil
}

// OverrideSiteSpaceCustomization merges overrides into a site space's
// (null resets an override) and returns the settings it now shows.
// Errors: NotFound, Forbidden, BadRequest.
func (s *Service) OverrideSiteSpaceCustomization(ctx context.Context, orgID, siteID, id string, raw []byte) (customization.Settings, error) {
	st, err := s.writable(ctx, orgID, siteID)
	if err != nil {
		return customization.Settings{}, err
	}
	ss, err := s.SiteSpace(ctx, orgID, siteID, id)
	if err != nil {
		return customization.Settings{}, err
	}
	var base customization.SpaceSettings
	if ss.Customization != nil && len(*ss.Customization) > 0 {
		if base, err = customization.DecodeSpace(*ss.Customization); err != nil {
			return customization.Settings{}, fmt.Errorf("stored customization of site space %s: %w", ss.ID, err)
		}
	}
	over, err := customization.PatchSpace(base, raw)
	if err != nil {
		return customization.Settings{}, err
	}
	stored, err := json.Marshal(over)
	if err != nil {
		return customization.Settings{}, fmt.Errorf("encode customization: %w", err)
	}
	if err := catalog.WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		return tx.SiteSpace.UpdateOneID(ss.ID).SetCustomization(stored).Exec(ctx)
	}); err != nil {
		return customization.Settings{}, fmt.Errorf("store customization: %w", err)
	}
	// A copy: the site space read may be shared with other requests (see
	// Kept).
	changed := *ss
	changed.Customization = &stored
	ss = &changed
	s.forget(ctx, st.ID)
	return effective(st, ss)
}

// DeleteSiteSpaceCustomization removes a site space's overrides; false when
// it had none.
// Errors: NotFound, Forbidden.
func (s *Service) DeleteSiteSpaceCustomization(ctx context.Context, orgID, siteID, id string) (bool, error) {
	st, err := s.writable(ctx, orgID, siteID)
	if err != nil {
		return false, err
	}
	ss, err := s.SiteSpace(ctx, orgID, siteID, id)
	if err != nil {
		return false, err
	}
	if ss.Customization == nil || len(*ss.Customization) == 0 {
		return false, nil
	}
	if err := catalog.WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		return tx.SiteSpace.UpdateOneID(ss.ID).ClearCustomization().Exec(ctx)
	}); err != nil {
		return false, fmt.Errorf("delete customization: %w", err)
	}
	s.forget(ctx, st.ID)
	return true, nil
}

// AdaptiveSchema is a site's visitor attributes schema.
type AdaptiveSchema struct {
	JSONSchema json.RawMessage
	UpdatedAt  time.Time
}

// AdaptiveSchema returns the site's adaptive schema.
// Errors: NotFound (no site, or no schema set).
func (s *Service) AdaptiveSchema(ctx context.Context, orgID, siteID string) (*AdaptiveSchema, error) {
	st, err := s.Site(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	if st.AdaptiveSchema == nil || len(*st.AdaptiveSchema) == 0 {
		return nil, apierr.NotFoundf("The site has no visitor attributes schema")
	}
	out := &AdaptiveSchema{JSONSchema: *st.AdaptiveSchema}
	if st.AdaptiveSchemaUpdatedAt != nil {
		out.UpdatedAt = st.AdaptiveSchemaUpdatedAt.UTC()
	}
	return out, nil
}

// PutAdaptiveSchema sets the site's adaptive schema after checking it
// against the JSON Schema draft-07 meta-schema and the documented shape.
// Errors: NotFound, Forbidden, BadRequest.
func (s *Service) PutAdaptiveSchema(ctx context.Context, orgID, siteID string, schema json.RawMessage) (*AdaptiveSchema, error) {
	if len(schema) == 0 {
		return nil, apierr.Invalid("jsonSchema", "jsonSchema is required")
	}
	if err := adaptive.ValidateSchema(schema); err != nil {
		return nil, err
	}
	st, err := s.writable(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	// Stored times keep microseconds (PostgreSQL); answer what a GET will read.
	now := s.Now().Truncate(time.Microsecond)
	if err := catalog.WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		return tx.Site.UpdateOneID(st.ID).SetAdaptiveSchema(schema).SetAdaptiveSchemaUpdatedAt(now).Exec(ctx)
	}); err != nil {
		return nil, fmt.Errorf("store adaptive schema: %w", err)
	}
	s.forget(ctx, st.ID)
	return &AdaptiveSchema{JSONSchema: schema, UpdatedAt: now}, nil
}

// TemplateConditions derives example conditions from the site's schema.
// Errors: NotFound.
func (s *Service) TemplateConditions(ctx context.Context, orgID, siteID string) ([]adaptive.TemplateCondition, error) {
	st, err := s.Site(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	if st.AdaptiveSchema == nil || len(*st.AdaptiveSchema) == 0 {
		return []adaptive.TemplateCondition{}, nil
	}
	return adaptive.TemplateConditions(*st.AdaptiveSchema), nil
}

func (s *Service) forget(ctx context.Context, siteID string) {
	if _, err := s.reload(ctx, siteID); err != nil {
		// The write succeeded; a stale cache only lasts this request.
		return
	}
}
