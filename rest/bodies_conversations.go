package rest

import (
	"bytes"
	"encoding/json"
	"reflect"

	"quire/internal/apierr"
)

// The request bodies and query parameters of conversations, their issues
// and clusters, and of translations.

// ConversationsBody is the body of ingestion: one conversation, or an
// array of at most 100 of them.
type ConversationsBody struct {
	Items []ConversationBody
}

// maxIngest is the most conversations of one ingestion request
// (conversations.MaxBatch).
const maxIngest = 100

// decodeMany decodes one object or an array of objects. Errors name the
// field as in the body: "id" for one conversation, "[3].id" in an array.
func (b *ConversationsBody) decodeMany(raw []byte) error {
	c := &constraints{minLength: -1, maxLength: -1, maxItems: maxIngest}
	v := reflect.ValueOf(&b.Items).Elem()
	switch raw[0] {
	case '[':
		return decodeArray("", raw, v, c)
	case '{':
		var one ConversationBody
		if err := decodeObject("", raw, reflect.ValueOf(&one).Elem()); err != nil {
			return err
		}
		b.Items = []ConversationBody{one}
		return nil
	}
	return apierr.Invalid("body", "The request body must be a conversation (an object) or an array of them")
}

// oneOrMany is a body that is one object or an array of them (decoded by
// decodeMany, documented as oneOf the object and an array of it).
type oneOrMany interface {
	decodeMany(raw []byte) error
	itemType() reflect.Type
}

func (*ConversationsBody) itemType() reflect.Type { return reflect.TypeFor[ConversationBody]() }

// decodeOneOrMany decodes a body that may be an array, when v is one.
func decodeOneOrMany(raw []byte, v any) (bool, error) {
	m, ok := v.(oneOrMany)
	if !ok {
		return false, nil
	}
	if err := checkDepth(raw); err != nil {
		return true, err
	}
	if !json.Valid(raw) {
		return true, apierr.Invalid("body", "The request body is not valid JSON")
	}
	if err := checkBodyNUL(raw); err != nil {
		return true, err
	}
	return true, m.decodeMany(bytes.TrimSpace(raw))
}

// ConversationBody is a conversation to ingest.
type ConversationBody struct {
	ID      string      `json:"id" minLength:"1" maxLength:"255" limit:"minLength=nonEmpty,maxLength=conversations.MaxID" doc:"The sender's id of the conversation, unique in the organization: ingesting the same id again replaces it."`
	Subject Opt[string] `json:"subject" maxLength:"512" limit:"maxLength=conversations.MaxSubject" nullable:"true"`
	// Quire: where the conversation comes from.
	Source   Opt[string]               `json:"source" maxLength:"255" limit:"maxLength=conversations.MaxSource" pattern:"^(email|integration:[^:\\s]+:[^:\\s]+)$" mustBe:"email or integration:NAME:INSTANCE" nullable:"true" doc:"Quire: email or integration:NAME:INSTANCE (default integration:api:USER_ID of the caller)."`
	Parts    []ConversationPartBody    `json:"parts" maxItems:"200" limit:"maxItems=conversations.MaxParts" doc:"The messages, at most 200."`
	Metadata *ConversationMetadataBody `json:"metadata,omitempty" nullable:"true"`
}

// ConversationPartBody is a message of a conversation.
type ConversationPartBody struct {
	Type string `json:"type" enum:"message"`
	Role string `json:"role" enum:"user,assistant,team-member"`
	Body string `json:"body" maxLength:"20000" limit:"maxLength=conversations.MaxPartBody" doc:"Markdown or HTML, at most 20,000 characters."`
}

// ConversationMetadataBody describes where a conversation comes from.
type ConversationMetadataBody struct {
	URL        Opt[string]       `json:"url" maxLength:"2048" limit:"maxLength=conversations.MaxURL" nullable:"true" doc:"An http or https URL of the conversation."`
	Attributes map[string]string `json:"attributes,omitempty" nullable:"true" doc:"At most 50 entries; names of 1 to 100 characters, values of at most 1,000."`
	CreatedAt  Opt[string]       `json:"createdAt" format:"date-time" nullable:"true" doc:"When the conversation happened (RFC 3339)."`
}

// ConversationListParams filter a list of conversations.
type ConversationListParams struct {
	ListParams
	Source string `query:"source" doc:"Only conversations of this source."`
}

// IssueListParams filter a list of issues.
type IssueListParams struct {
	ListParams
	Cluster      string `query:"cluster" doc:"Only issues of this cluster."`
	Conversation string `query:"conversation" doc:"Only issues of this conversation."`
}

// ClusterListParams order a list of clusters.
type ClusterListParams struct {
	ListParams
	Order   string `query:"order" enum:"asc,desc" doc:"desc (default): most first."`
	OrderBy string `query:"orderBy" enum:"updatedAt,issues,conversations" doc:"What clusters are ordered by (default updatedAt)."`
}

// UpdateClusterBody mutes or unmutes a cluster.
type UpdateClusterBody struct {
	Muted bool `json:"muted" doc:"A muted cluster cannot be addressed by new change requests."`
}

// TranslationSourceBody names what a translation translates.
type TranslationSourceBody struct {
	Space    string `json:"space" doc:"Id of the source space."`
	Language string `json:"language" enumOf:"language" doc:"The source's language."`
}

// CreateTranslationBody creates a translation.
type CreateTranslationBody struct {
	Source       TranslationSourceBody          `json:"source"`
	Language     string                         `json:"language" enumOf:"language" doc:"The language to translate into."`
	Instructions Opt[RawObject[map[string]any]] `json:"instructions" nullable:"true" doc:"A JSON document: glossary rules such as \"Keep 'Quire' untranslated\" or \"space -> espace\"."`
}

// UpdateTranslationBody replaces a translation's instructions.
type UpdateTranslationBody struct {
	Instructions RawObject[map[string]any] `json:"instructions" doc:"A JSON document."`
}
