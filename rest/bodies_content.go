package rest

import "encoding/json"

// TemplateParamsBody holds the parameters of a content template.
type TemplateParamsBody struct {
	ContentRefs map[string]json.RawMessage `json:"contentRefs,omitempty" doc:"Parameter name to content reference ({kind, ...})."`
}

// TemplateBody names a content template and its parameters.
type TemplateBody struct {
	ID     string              `json:"id" doc:"Id of the template (see contentTemplates in GraphQL)."`
	Params *TemplateParamsBody `json:"params,omitempty"`
}

// ApplyTemplateBody applies a content template to a space's content, or to
// a change request's.
type ApplyTemplateBody struct {
	ID              string              `json:"id" doc:"Id of the template."`
	Params          *TemplateParamsBody `json:"params,omitempty"`
	ChangeRequestID string              `json:"changeRequestId,omitempty" doc:"Apply in this change request instead of the space's content."`
}

// CreateChangeRequestBody creates a change request; other properties are
// accepted and ignored.
type CreateChangeRequestBody struct {
	Subject  string        `json:"subject,omitempty" maxLength:"100"`
	Template *TemplateBody `json:"template,omitempty" doc:"A template to apply in the new change request."`
}

// UpdateChangeRequestBody patches a change request; omitted fields stay
// unchanged.
type UpdateChangeRequestBody struct {
	Subject     string           `json:"subject,omitempty" maxLength:"100"`
	Description *json.RawMessage `json:"description,omitempty" nullable:"true" doc:"A JSON document; null removes the description."`
	Status      string           `json:"status,omitempty" enum:"draft,open,archived"`
}
