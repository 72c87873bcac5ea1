package rest

import "quire/graph/model"

// The request bodies of OpenAPI specifications.

// OpenAPISourceBody is where a specification is read from: exactly one of
// url and text.
type OpenAPISourceBody struct {
	URL  Opt[string] `json:"url" maxLength:"2048" limit:"maxLength=openapispec.MaxURL" doc:"An http or https URL to fetch the specification from (its relative $ref files are fetched beside it)."`
	Text Opt[string] `json:"text" minLength:"1" limit:"minLength=nonEmpty" doc:"The specification itself, YAML or JSON, at most 1 MiB."`
}

// CreateOpenAPISpecBody creates a specification.
type CreateOpenAPISpecBody struct {
	Slug   string            `json:"slug" minLength:"1" maxLength:"100" limit:"minLength=nonEmpty,maxLength=openapispec.MaxSlug" pattern:"^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$" mustBe:"letters, digits and single dashes between them, such as petstore-v2" doc:"Unique in the organization; content references name the specification by it."`
	Source OpenAPISourceBody `json:"source"`
}

// PutOpenAPISpecBody sets the source of a specification, creating it when
// the slug names none.
type PutOpenAPISpecBody struct {
	Source OpenAPISourceBody `json:"source"`
}

// UpdateOpenAPISpecBody changes a specification's visibility.
type UpdateOpenAPISpecBody struct {
	Visibility string `json:"visibility" enum:"private,public" doc:"public serves the latest version to anyone at urls.published."`
}

func (b OpenAPISourceBody) input() *model.OpenAPISpecSourceInput {
	return &model.OpenAPISpecSourceInput{URL: b.URL.Omittable(), Text: b.Text.Omittable()}
}
