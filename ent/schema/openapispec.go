package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"

	"quire/internal/ids"
	"quire/internal/types"
)

// OpenAPISpec is an OpenAPI specification of an organization, named by a
// slug unique in it, read from a URL or from text given with it. A
// background job fetches and reads the source; each distinct content it
// reads is an OpenAPISpecVersion.
type OpenAPISpec struct{ ent.Schema }

// Fields of the OpenAPISpec.
func (OpenAPISpec) Fields() []ent.Field {
	return []ent.Field{
		field.String("id").DefaultFunc(ids.Generator(ids.OpenAPISpec)).Immutable(),
		field.String("organization_id").Immutable(),
		field.String("slug").Immutable(),
		// Exactly one of source_url and source_text is set.
		field.String("source_url").Optional().Nillable(),
		field.Text("source_text").Optional().Nillable(),
		field.String("visibility").Default("private"),
		// pending, progress or complete.
		field.String("processing_state").Default("pending"),
		// Counts the changes of the source: a processing job carries the
		// generation it was asked for, and one that finds a newer
		// generation leaves the spec to the job of that one.
		field.Int("generation").Default(1),
		field.String("last_version_id").Optional().Nillable(),
		field.Time("last_processed_at").Optional().Nillable(),
		field.String("last_process_error_code").Optional().Nillable(),
		field.JSON("last_processed_errors", []types.SpecError{}).Default([]types.SpecError{}),
		// The user who created it.
		field.String("created_by").Default("").Immutable(),
		field.Time("created_at").Default(nowUTC).Immutable(),
		field.Time("updated_at").Default(nowUTC),
	}
}

// Edges of the OpenAPISpec.
func (OpenAPISpec) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("versions", OpenAPISpecVersion.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes of the OpenAPISpec.
func (OpenAPISpec) Indexes() []ent.Index {
	return []ent.Index{index.Fields("organization_id", "slug").Unique()}
}

// OpenAPISpecVersion is one content of a specification: its root file and
// the files its references reach, as they were read.
type OpenAPISpecVersion struct{ ent.Schema }

// Fields of the OpenAPISpecVersion.
func (OpenAPISpecVersion) Fields() []ent.Field {
	return []ent.Field{
		field.String("id").DefaultFunc(ids.Generator(ids.OpenAPISpecVersion)).Immutable(),
		field.String("spec_id").Immutable(),
		// The path of the root file in the version's files.
		field.String("root").Immutable(),
		// SHA-256 of the whole content (every path and text), so that a
		// processing that reads what the last version holds stores nothing.
		field.String("content_hash").Immutable(),
		// Where the root file was read from; nil for a text source.
		field.String("source_url").Optional().Nillable().Immutable(),
		field.Int64("size").Immutable(),
		field.Int("file_count").Immutable(),
		field.Time("created_at").Default(nowUTC).Immutable(),
	}
}

// Edges of the OpenAPISpecVersion.
func (OpenAPISpecVersion) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("spec", OpenAPISpec.Type).Ref("versions").Field("spec_id").Unique().Required().Immutable(),
		edge.To("files", OpenAPISpecFile.Type).Annotations(entsql.OnDelete(entsql.Cascade)),
	}
}

// Indexes of the OpenAPISpecVersion.
func (OpenAPISpecVersion) Indexes() []ent.Index {
	return []ent.Index{index.Fields("spec_id", "created_at")}
}

// OpenAPISpecFile is one file of a version: its path and the blob holding
// its text.
type OpenAPISpecFile struct{ ent.Schema }

// Fields of the OpenAPISpecFile.
func (OpenAPISpecFile) Fields() []ent.Field {
	return []ent.Field{
		field.String("version_id").Immutable(),
		field.String("path").Immutable(),
		field.String("blob_id").Immutable(),
	}
}

// Edges of the OpenAPISpecFile.
func (OpenAPISpecFile) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("version", OpenAPISpecVersion.Type).Ref("files").Field("version_id").Unique().Required().Immutable(),
		// No cascade: a blob is deleted only once no file holds it, and a
		// file being written keeps its blob from being deleted under it.
		edge.From("blob", OpenAPISpecBlob.Type).Ref("files").Field("blob_id").Unique().Required().Immutable(),
	}
}

// Indexes of the OpenAPISpecFile.
func (OpenAPISpecFile) Indexes() []ent.Index {
	return []ent.Index{index.Fields("version_id", "path").Unique(), index.Fields("blob_id")}
}

// OpenAPISpecBlob is the text of specification files, addressed by its
// SHA-256 (lowercase hex), so a file that several versions or specs hold
// is stored once.
type OpenAPISpecBlob struct{ ent.Schema }

// Fields of the OpenAPISpecBlob.
func (OpenAPISpecBlob) Fields() []ent.Field {
	return []ent.Field{
		field.String("id").NotEmpty().Immutable(),
		field.Text("text").Immutable(),
		field.Int64("size").Immutable(),
		field.Time("created_at").Default(nowUTC).Immutable(),
	}
}

// Edges of the OpenAPISpecBlob.
func (OpenAPISpecBlob) Edges() []ent.Edge {
	return []ent.Edge{edge.To("files", OpenAPISpecFile.Type)}
}

// Annotations of the OpenAPISpec.
func (OpenAPISpec) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Annotation{Table: "openapi_specs"}}
}

// Annotations of the OpenAPISpecVersion.
func (OpenAPISpecVersion) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Annotation{Table: "openapi_spec_versions"}}
}

// Annotations of the OpenAPISpecFile.
func (OpenAPISpecFile) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Annotation{Table: "openapi_spec_files"}}
}

// Annotations of the OpenAPISpecBlob.
func (OpenAPISpecBlob) Annotations() []schema.Annotation {
	return []schema.Annotation{entsql.Annotation{Table: "openapi_spec_blobs"}}
}
