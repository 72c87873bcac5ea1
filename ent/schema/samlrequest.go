package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// SAMLRequest is an authentication request Quire sent to an identity
// provider and has not had the answer of yet. The answer must name it
// (InResponseTo); it is consumed by the first answer, so that a response
// cannot be played twice, and it expires. Kept in the database, so that
// any process sharing it may receive the answer.
type SAMLRequest struct{ ent.Schema }

// Fields of the SAMLRequest.
func (SAMLRequest) Fields() []ent.Field {
	return []ent.Field{
		// The AuthnRequest's ID.
		field.String("id").NotEmpty().Immutable(),
		field.String("provider_id").Immutable(),
		field.Time("created_at").Default(nowUTC).Immutable(),
		field.Time("expires_at").Immutable(),
	}
}

// Edges of the SAMLRequest.
func (SAMLRequest) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("provider", SAMLProvider.Type).Ref("requests").Field("provider_id").Unique().Required().Immutable(),
	}
}

// Indexes of the SAMLRequest.
func (SAMLRequest) Indexes() []ent.Index {
	return []ent.Index{index.Fields("expires_at")}
}
