package graph

import (
	"context"
	"encoding/json"
	"strings"

	"quire/graph/model"
	"quire/internal/apierr"
	"quire/internal/content"
	"quire/internal/document"
	"quire/internal/types"
)

// templateRefs decodes the contentRefs of a template given for field.
func templateRefs(field string, raw types.JSON) (map[string]document.ContentRef, error) {
	refs := map[string]document.ContentRef{}
	if len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &refs); err != nil {
			return nil, apierr.Invalid(field, "contentRefs must map parameter names to content references")
		}
	}
	return refs, nil
}

// changeRequestTemplate reads the template of a new change request; its
// errors name the template's fields.
func changeRequestTemplate(in *model.ChangeRequestTemplateInput) (*content.TemplateUse, error) {
	refs, err := templateRefs("template.contentRefs", in.ContentRefs.Value())
	if err != nil {
		return nil, err
	}
	if _, err := content.TemplateByID(in.ID); err != nil {
		return nil, underTemplate(err)
	}
	return &content.TemplateUse{ID: in.ID, Refs: refs}, nil
}

// underTemplate names template fields below "template" in an error.
func underTemplate(err error) error {
	if e, ok := apierr.As(err); ok && (e.Field == "id" || strings.HasPrefix(e.Field, "params")) {
		return apierr.Invalid("template."+e.Field, "%s", e.Message)
	}
	return err
}

func contentTemplates() []*model.ContentTemplate {
	var out []*model.ContentTemplate
	for _, t := range content.Templates() {
		ct := &model.ContentTemplate{ID: t.ID, Title: t.Title, Description: t.Description, Params: []*model.ContentTemplateParam{}}
		for _, p := range t.Params {
			ct.Params = append(ct.Params, &model.ContentTemplateParam{Name: p.Name, Description: p.Description, Kinds: p.Kinds, Required: p.Required})
		}
		out = append(out, ct)
	}
	return out
}

// applyTemplate applies a built-in template and returns the content it
// made: the change request's or the space's.
func (r *Resolver) applyTemplate(ctx context.Context, in model.ApplyTemplateInput) (*content.Revision, error) {
	sp, err := r.contentSpace(ctx, in.Space, types.RoleEdit)
	if err != nil {
		return nil, err
	}
	refs, err := templateRefs("params.contentRefs", in.ContentRefs.Value())
	if err != nil {
		return nil, err
	}
	crID := str(in.ChangeRequest)
	if crID != "" {
		cr, err := r.spaceChangeRequest(ctx, sp, &crID, nil)
		if err != nil {
			return nil, err
		}
		crID = cr.ID
	}
	if err := r.Content.ApplyTemplate(ctx, sp.ID, crID, in.Template, refs); err != nil {
		return nil, err
	}
	forgetSpace(ctx, sp.ID)
	if crID != "" {
		cr, err := r.Content.ChangeRequest(ctx, crID)
		if err != nil {
			return nil, err
		}
		return r.Content.Revision(ctx, cr.RevisionID)
	}
	fresh, _, err := r.Catalog.Space(ctx, sp.ID)
	if err != nil {
		return nil, err
	}
	return r.Content.Revision(ctx, fresh.RevisionID)
}
