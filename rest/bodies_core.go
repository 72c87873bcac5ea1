package rest

import (
	"encoding/json"

	"quire/internal/types"
)

// The request bodies and query parameters of organizations, collections
// and spaces. Routes decode requests into them and check their tags; the
// OpenAPI document is generated from them.

// CreateCollectionBody creates a collection.
type CreateCollectionBody struct {
	Title  Opt[string] `json:"title" maxLength:"50" limit:"maxLength=catalog.TitleMax" nullable:"true"`
	Parent Opt[string] `json:"parent" nullable:"true" doc:"Id of the parent collection."`
}

// UpdateCollectionBody patches a collection; omitted fields stay unchanged.
type UpdateCollectionBody struct {
	Title        Opt[string]             `json:"title" maxLength:"50" limit:"maxLength=catalog.TitleMax"`
	Description  Opt[string]             `json:"description" maxLength:"100" limit:"maxLength=catalog.DescriptionMax" nullable:"true" doc:"null removes it."`
	DefaultLevel Opt[types.DefaultLevel] `json:"defaultLevel" nullable:"true"`
}

// CreateSpaceBody creates a space.
type CreateSpaceBody struct {
	Title          Opt[string]          `json:"title" maxLength:"50" limit:"maxLength=catalog.TitleMax" nullable:"true"`
	Emoji          Opt[string]          `json:"emoji" maxLength:"50" limit:"maxLength=catalog.EmojiMax" nullable:"true"`
	Parent         Opt[string]          `json:"parent" nullable:"true" doc:"Id of the parent collection."`
	Language       Opt[types.Language]  `json:"language" nullable:"true"`
	EditMode       Opt[types.EditMode]  `json:"editMode" nullable:"true"`
	Empty          *bool                `json:"empty,omitempty" nullable:"true" doc:"Create a completely empty space."`
	Template       Opt[json.RawMessage] `json:"template" nullable:"true" doc:"Not supported yet: refused with 400."`
	ComputedSource Opt[json.RawMessage] `json:"computedSource" nullable:"true" doc:"Not supported yet: refused with 400."`
}

// UpdateSpaceBody patches a space; omitted fields stay unchanged.
type UpdateSpaceBody struct {
	EditMode     Opt[types.EditMode]     `json:"editMode"`
	Title        Opt[string]             `json:"title" maxLength:"50" limit:"maxLength=catalog.TitleMax"`
	DefaultLevel Opt[types.DefaultLevel] `json:"defaultLevel" nullable:"true"`
	Language     Opt[types.Language]     `json:"language" nullable:"true"`
	MergeRules   Opt[MergeRulesBody]     `json:"mergeRules"`
	Emoji        Opt[string]             `json:"emoji" maxLength:"50" limit:"maxLength=catalog.EmojiMax" nullable:"true" doc:"null removes it."`
	Icon         Opt[string]             `json:"icon" minLength:"1" maxLength:"2048" limit:"minLength=nonEmpty,maxLength=catalog.IconMax" nullable:"true" format:"uri" doc:"URL of a custom icon; null removes it."`
}

// MergeRulesBody configures merge rules.
type MergeRulesBody struct {
	Type  string          `json:"type" enum:"inherit,rules,none"`
	Rules []MergeRuleBody `json:"rules,omitempty" nullable:"true" maxItems:"50" limit:"maxItems=rest.MaxMergeRules"`
}

// MergeRuleBody is one merge rule.
type MergeRuleBody struct {
	Rule       string   `json:"rule"`
	Users      []string `json:"users,omitempty" nullable:"true" maxItems:"1000" limit:"maxItems=rest.MaxMergeRuleUsers"`
	Expression *string  `json:"expression,omitempty" maxLength:"1024" limit:"maxLength=rest.MaxMergeRuleExpr" nullable:"true"`
}

// ContentPointerBody names a sibling space or collection.
type ContentPointerBody struct {
	Type       string  `json:"type" enum:"space,collection"`
	Space      *string `json:"space,omitempty" nullable:"true"`
	Collection *string `json:"collection,omitempty" nullable:"true"`
}

// ContentPositionBody places an item among its siblings.
type ContentPositionBody struct {
	Before *ContentPointerBody `json:"before,omitempty" nullable:"true"`
	After  *ContentPointerBody `json:"after,omitempty" nullable:"true"`
}

// MoveBody moves a collection or a space.
type MoveBody struct {
	Parent   Opt[string]          `json:"parent" nullable:"true" doc:"Id of the new parent collection; null for the organization's root."`
	Position *ContentPositionBody `json:"position,omitempty" nullable:"true" doc:"Where among the siblings; at the end when omitted."`
}

// TransferBody transfers to another organization.
type TransferBody struct {
	Organization string `json:"organization" doc:"Id of the target organization."`
}

// OrgCollectionsParams are the parameters of an organization's collection
// list.
type OrgCollectionsParams struct {
	ListParams
	Nested *bool `query:"nested" doc:"Include collections inside collections (default true)."`
}
