package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
)

// ContentBlob is content-addressed bytes: page documents (JSON) and file
// contents. Its id is the lowercase hex SHA-256 of Data, so identical
// content is stored once whatever the space, page or file.
type ContentBlob struct{ ent.Schema }

// Fields of the ContentBlob.
func (ContentBlob) Fields() []ent.Field {
	return []ent.Field{
		field.String("id").NotEmpty().Immutable(),
		field.Bytes("data").Immutable(),
		field.Int64("size").Immutable(),
		field.Time("created_at").Default(nowUTC).Immutable(),
	}
}
