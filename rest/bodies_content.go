package rest

import "encoding/json"

// The request bodies and query parameters of content and change requests.

// TemplateParamsBody holds the parameters of a content template.
type TemplateParamsBody struct {
	ContentRefs *RawObject[map[string]json.RawMessage] `json:"contentRefs,omitempty" nullable:"true" doc:"Parameter name to content reference ({kind, ...})."`
}

// TemplateBody names a content template and its parameters.
type TemplateBody struct {
	ID     string              `json:"id" minLength:"1" limit:"minLength=nonEmpty" phrasing:"required" doc:"Id of the template (see contentTemplates in GraphQL)."`
	Params *TemplateParamsBody `json:"params,omitempty" nullable:"true"`
}

// ApplyTemplateBody applies a content template to a space's content, or to
// a change request's.
type ApplyTemplateBody struct {
	ID              string              `json:"id" doc:"Id of the template."`
	Params          *TemplateParamsBody `json:"params,omitempty" nullable:"true"`
	ChangeRequestID Opt[string]         `json:"changeRequestId" nullable:"true" doc:"Apply in this change request instead of the space's content."`
}

// CreateChangeRequestBody creates a change request; other properties are
// accepted and ignored.
type CreateChangeRequestBody struct {
	Subject  Opt[string]   `json:"subject" maxLength:"100" limit:"maxLength=content.MaxSubject" trim:"true" phrasing:"count" nullable:"true"`
	Template *TemplateBody `json:"template,omitempty" nullable:"true" doc:"A template to apply in the new change request."`
	// Quire: the issues cluster the change request addresses.
	ConversationsIssuesCluster Opt[string] `json:"conversationsIssuesCluster" nullable:"true" doc:"Id of the issues cluster (of the space's organization, not muted) the change request addresses."`
}

// UpdateChangeRequestBody patches a change request; omitted fields stay
// unchanged.
type UpdateChangeRequestBody struct {
	Subject     Opt[string]                    `json:"subject" maxLength:"100" limit:"maxLength=content.MaxSubject" trim:"true" phrasing:"count"`
	Description Opt[RawObject[map[string]any]] `json:"description" nullable:"true" doc:"A JSON document; null removes the description."`
	Status      Opt[string]                    `json:"status" enum:"draft,open,archived"`
	// Quire: the issues cluster the change request addresses.
	ConversationsIssuesCluster Opt[string] `json:"conversationsIssuesCluster" nullable:"true" doc:"Id of the issues cluster the change request addresses; null removes it."`
}

// ChangeRequestListParams filter a list of change requests.
type ChangeRequestListParams struct {
	ListParams
	Status                     []string `query:"status" commas:"true" enum:"draft,open,archived,merged" doc:"Only change requests with one of these statuses (default open)."`
	Creator                    string   `query:"creator" doc:"Only change requests created by this user."`
	Contributor                string   `query:"contributor" doc:"Only change requests this user edited."`
	RequestedReviewer          string   `query:"requestedReviewer" doc:"Only change requests that ask this user for a review they have yet to give."`
	OrderBy                    string   `query:"orderBy" enum:"updatedAt,createdAt" doc:"Most recent first by this date (default updatedAt)."`
	ConversationsIssuesCluster string   `query:"conversationsIssuesCluster" doc:"Only change requests addressing this issues cluster."`
}

// PDFParams choose what a PDF holds.
type PDFParams struct {
	Only *bool  "query:\"only\" doc:\"true: the PDF holds only the page given by `page` (required then); false: the whole content, `page` ignored. Default: only the page when `page` is given.\""
	Page string `query:"page" doc:"Id of a page of the change request's content."`
}

// CompatParams choose what content reads carry.
type CompatParams struct {
	Metadata *bool `query:"metadata" doc:"false leaves out the Git metadata (git) of the revision, its pages and files, which changes with every Git sync (default true)."`
	Computed *bool `query:"computed" doc:"Page reads: true (default) gives a computed page the document it generates (an API reference from an OpenAPI specification); false gives the page as stored, with an empty document. Page trees carry computed pages as stored."`
}

// FileListParams are the parameters of a file list.
type FileListParams struct {
	ListParams
	CompatParams
}

// PageParams choose how a page is read.
type PageParams struct {
	Format       string "query:\"format\" enum:\"document,markdown\" doc:\"document (default): a document page carries its JSON document in `document`; markdown: in `markdown`.\""
	Evaluated    string `query:"evaluated" fold:"true" enum:"true,false,deterministic-only" doc:"Evaluate expressions and conditions: true (all), false (default, as written) or deterministic-only (only those over variables and literals)."`
	Dereferenced string `query:"dereferenced" fold:"true" enum:"true,false,reusable-contents" doc:"true or reusable-contents: each reusable-content block is replaced by the blocks of the reusable content it names, themselves dereferenced down to 3 levels and never into themselves (a block naming a reusable content the revision does not hold stays); false (default): the blocks stay."`
	CompatParams
}

// LinkParams page and filter a link report.
type LinkParams struct {
	ListParams
	Status string `query:"status" enum:"ok,broken,in-app" doc:"Only references with this status; stats always count every reference."`
}

// ComputedDocumentBody asks for the document a computed source generates.
type ComputedDocumentBody struct {
	Source RawObject[map[string]any] `json:"source" doc:"A computed page's definition: {type: \"builtin:openapi\", dependencies: {spec: {ref: {kind: \"openapi\", spec: SLUG}}}, props?: {doc?: operations|models|info, page?}}, checked as a page's."`
	Seed   string                    `json:"seed" doc:"Seed of the generated block keys, at most 256 characters."`
}
