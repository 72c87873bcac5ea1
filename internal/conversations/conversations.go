// Package conversations is the engine of support conversations: their
// ingestion (idempotent on the sender's id), the background analysis that
// finds the issues each one raises (Extract) and groups the issues of an
// organization into clusters by text similarity (internal/textcluster),
// and the reads and the muting of clusters.
//
// Who may do what: reading conversations, issues and clusters needs a role
// in the organization (read or more); ingesting needs the admin role (the
// organization's ingestConversations permission); muting a cluster needs
// edit. Conversations of an organization the caller does not belong to,
// or belongs to as a guest, are NotFound, like unknown ids.
package conversations

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"quire/ent"
	"quire/ent/conversation"
	"quire/ent/schema"
	"quire/internal/apierr"
	"quire/internal/auth"
	"quire/internal/authz"
	"quire/internal/db"
	"quire/internal/ids"
	"quire/internal/jobs"
	"quire/internal/types"
)

// Limits of ingestion: a request is a bulk input from a caller that may be
// hostile, so everything in it is bounded (the body itself is at most
// 1 MiB).
const (
	// MaxBatch is the most conversations one request ingests.
	MaxBatch = 100
	// MaxParts is the most parts (messages) of a conversation.
	MaxParts = 200
	// MaxPartBody is the longest message body, in characters.
	MaxPartBody = 20000
	// MaxID is the longest id of a conversation; MaxSubject its subject.
	MaxID      = 255
	MaxSubject = 512
	// MaxURL is the longest metadata.url.
	MaxURL = 2048
	// MaxAttributes is the most metadata attributes; their keys and values
	// are at most MaxAttributeKey and MaxAttributeValue characters.
	MaxAttributes     = 50
	MaxAttributeKey   = 100
	MaxAttributeValue = 1000
	// MaxSource is the longest source.
	MaxSource = 255
)

// Roles of the parts of a conversation.
var Roles = []string{"user", "assistant", "team-member"}

// Input is a conversation to ingest.
type Input struct {
	// ID is the sender's id of the conversation, unique in the
	// organization: ingesting the same id again replaces it.
	ID      string
	Subject *string
	Parts   []PartInput
	// Source is email or integration:NAME:INSTANCE; empty means the
	// API, as integration:api:USER_ID of the caller.
	Source   string
	Metadata *Metadata
}

// PartInput is a message of a conversation.
type PartInput struct {
	Type string
	Role string
	Body string
}

// Metadata describes where a conversation comes from.
type Metadata struct {
	URL        *string
	Attributes map[string]string
	CreatedAt  *time.Time
}

// Service is the conversations engine.
type Service struct {
	Client *ent.Client
	// Jobs enqueues the analysis after ingestion.
	Jobs jobs.Enqueuer
	// Now returns the current time; tests may replace it.
	Now func() time.Time
	// PublicURL is the base of the clusters' app URLs.
	PublicURL string
}

// New returns the engine over client.
func New(client *ent.Client, enq jobs.Enqueuer, publicURL string) *Service {
	return &Service{Client: client, Jobs: enq, Now: func() time.Time { return time.Now().UTC() }, PublicURL: publicURL}
}

// KindAnalyse is the background job that analyses the conversations of an
// organization that are new or changed.
const KindAnalyse = "conversations.analyse"

// analyseArgs are the arguments of KindAnalyse.
type analyseArgs struct {
	Organization string `json:"organization"`
}

// reader checks that the caller may read the organization's conversations:
// NotFound for non-members; for guests, errHidden when forbid is set
// (lists, which answer empty to guests as other lists do), NotFound
// otherwise.
func reader(ctx context.Context, orgID string, forbid bool) error {
	role, member, err := authz.OrgRole(ctx, orgID)
	if err != nil {
		return err
	}
	if !member {
		return apierr.NotFoundf("No matching organization found for id %q", orgID)
	}
	if role == authz.None {
		return errHidden
	}
	return nil
}

// errHidden stands for "not visible": callers replace it with their own
// NotFound.
var errHidden = apierr.NotFoundf("not visible")

// sourcePattern is what a source may be.
var sourcePattern = regexp.MustCompile(`^(?:email|integration:[^:\s]+:[^:\s]+)$`)

// Ingest stores conversations in an organization, each replacing the one of
// the same id ingested before (a conversation sent again unchanged is left
// alone), and enqueues their analysis in the same transaction. The caller
// needs the admin role.
// Errors: NotFound (organization), Forbidden, BadRequest (a limit or shape,
// naming the field as conversations[i].…).
func (s *Service) Ingest(ctx context.Context, orgID string, in []Input) ([]*ent.Conversation, error) {
	var out []*ent.Conversation
	err := s.ingest(ctx, orgID, in, &out)
	return out, err
}

func (s *Service) ingest(ctx context.Context, orgID string, in []Input, out *[]*ent.Conversation) error {
	role, member, err := authz.OrgRole(ctx, orgID)
	if err != nil {
		return err
	}
	if !member {
		return apierr.NotFoundf("No matching organization found for id %q", orgID)
	}
	if role != types.RoleAdmin {
		return apierr.Forbiddenf("You need the admin role in the organization to ingest conversations")
	}
	if len(in) == 0 {
		return apierr.Invalid("conversations", "Send at least one conversation")
	}
	if len(in) > MaxBatch {
		return apierr.Invalid("conversations", "A request ingests at most %d conversations (got %d)", MaxBatch, len(in))
	}
	seen := map[string]int{}
	for i := range in {
		if err := validate(fmt.Sprintf("conversations[%d]", i), &in[i]); err != nil {
			return err
		}
		if j, dup := seen[in[i].ID]; dup {
			return apierr.Invalid(fmt.Sprintf("conversations[%d].id", i), "conversations[%d].id: %q is also the id of conversations[%d]", i, in[i].ID, j)
		}
		seen[in[i].ID] = i
	}
	defaultSource := "integration:api:system"
	if u := auth.Viewer(ctx); u != nil {
		defaultSource = "integration:api:" + u.ID
	}
	now := s.Now()
	return db.WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		external := make([]string, len(in))
		for i := range in {
			external[i] = in[i].ID
		}
		existing, err := tx.Conversation.Query().
			Where(conversation.OrganizationID(orgID), conversation.ExternalIDIn(external...)).All(ctx)
		if err != nil {
			return fmt.Errorf("read conversations: %w", err)
		}
		byExternal := map[string]*ent.Conversation{}
		for _, c := range existing {
			byExternal[c.ExternalID] = c
		}
		changed := 0
		for i := range in {
			c := &in[i]
			source := c.Source
			if source == "" {
				source = defaultSource
			}
			parts := make([]schema.ConversationPart, len(c.Parts))
			for j, p := range c.Parts {
				parts[j] = schema.ConversationPart{Type: p.Type, Role: p.Role, Body: p.Body}
			}
			hash := contentHash(c.Subject, parts)
			var mdURL *string
			var attrs map[string]string
			var mdCreated *time.Time
			if c.Metadata != nil {
				mdURL, attrs, mdCreated = c.Metadata.URL, c.Metadata.Attributes, c.Metadata.CreatedAt
			}
			createdAt := now
			if mdCreated != nil {
				createdAt = mdCreated.UTC()
			}
			old := byExternal[c.ID]
			if old == nil {
				err = tx.Conversation.Create().SetOrganizationID(orgID).SetExternalID(c.ID).SetSource(source).
					SetNillableSubject(c.Subject).SetParts(parts).SetNillableMetadataURL(mdURL).
					SetMetadataAttributes(attrs).SetNillableMetadataCreatedAt(mdCreated).SetCreatedAt(createdAt).
					SetIngestedAt(now).SetContentHash(hash).SetPending(true).Exec(ctx)
				if err != nil {
					return fmt.Errorf("store conversation: %w", err)
				}
				changed++
				continue
			}
			if mdCreated == nil {
				createdAt = old.CreatedAt
			}
			u := tx.Conversation.UpdateOne(old).SetSource(source).SetParts(parts).
				SetMetadataAttributes(attrs).SetCreatedAt(createdAt).SetContentHash(hash)
			if c.Subject != nil {
				u.SetSubject(*c.Subject)
			} else {
				u.ClearSubject()
			}
			if mdURL != nil {
				u.SetMetadataURL(*mdURL)
			} else {
				u.ClearMetadataURL()
			}
			if mdCreated != nil {
				u.SetMetadataCreatedAt(*mdCreated)
			} else {
				u.ClearMetadataCreatedAt()
			}
			if hash != old.ContentHash || !old.CreatedAt.Equal(createdAt) || old.Source != source {
				// What the analysis reads changed: read it again.
				u.SetPending(true).SetIngestedAt(now)
				changed++
			}
			if err := u.Exec(ctx); err != nil {
				return fmt.Errorf("store conversation: %w", err)
			}
		}
		stored, err := tx.Conversation.Query().
			Where(conversation.OrganizationID(orgID), conversation.ExternalIDIn(external...)).All(ctx)
		if err != nil {
			return fmt.Errorf("read conversations: %w", err)
		}
		order := map[string]int{}
		for i, e := range external {
			order[e] = i
		}
		*out = make([]*ent.Conversation, len(stored))
		for _, c := range stored {
			(*out)[order[c.ExternalID]] = c
		}
		if changed == 0 || s.Jobs == nil {
			return nil
		}
		createdBy := ""
		if u := auth.Viewer(ctx); u != nil {
			createdBy = u.ID
		}
		_, err = s.Jobs.Enqueue(ctx, tx, jobs.Request{Kind: KindAnalyse, Args: analyseArgs{Organization: orgID},
			Organization: orgID, Subject: "organization:" + orgID + ":conversations", CreatedBy: createdBy})
		return err
	})
}

// contentHash fingerprints what the analysis reads of a conversation.
func contentHash(subject *string, parts []schema.ConversationPart) string {
	b, _ := json.Marshal([]any{subject, parts})
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

func validate(path string, c *Input) error {
	field := func(name string) string { return path + "." + name }
	if n := utf8.RuneCountInString(c.ID); n < 1 || n > MaxID || strings.TrimSpace(c.ID) == "" {
		return apierr.Invalid(field("id"), "%s must be between 1 and %d characters long", field("id"), MaxID)
	}
	if c.Subject != nil {
		if n := utf8.RuneCountInString(*c.Subject); n > MaxSubject {
			return apierr.Invalid(field("subject"), "%s must be at most %d characters long", field("subject"), MaxSubject)
		}
	}
	if c.Source != "" && (len(c.Source) > MaxSource || !sourcePattern.MatchString(c.Source)) {
		return apierr.Invalid(field("source"), "%s must be email or integration:NAME:INSTANCE (at most %d characters)", field("source"), MaxSource)
	}
	if len(c.Parts) > MaxParts {
		return apierr.Invalid(field("parts"), "%s: must have at most %d items", field("parts"), MaxParts)
	}
	for j, p := range c.Parts {
		pf := fmt.Sprintf("%s.parts[%d]", path, j)
		if p.Type != "message" {
			return apierr.Invalid(pf+".type", "%s.type must be message", pf)
		}
		okRole := false
		for _, r := range Roles {
			okRole = okRole || p.Role == r
		}
		if !okRole {
			return apierr.Invalid(pf+".role", "%s.role must be user, assistant or team-member", pf)
		}
		if n := utf8.RuneCountInString(p.Body); n > MaxPartBody {
			return apierr.Invalid(pf+".body", "%s.body must be at most %d characters long", pf, MaxPartBody)
		}
	}
	md := c.Metadata
	if md == nil {
		return nil
	}
	if md.URL != nil {
		u, err := url.Parse(*md.URL)
		if len(*md.URL) > MaxURL || err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return apierr.Invalid(field("metadata.url"), "%s must be an http or https URL of at most %d characters", field("metadata.url"), MaxURL)
		}
	}
	if len(md.Attributes) > MaxAttributes {
		return apierr.Invalid(field("metadata.attributes"), "%s: must have at most %d entries", field("metadata.attributes"), MaxAttributes)
	}
	for k, v := range md.Attributes {
		if n := utf8.RuneCountInString(k); n < 1 || n > MaxAttributeKey {
			return apierr.Invalid(field("metadata.attributes"), "%s: keys must be between 1 and %d characters long", field("metadata.attributes"), MaxAttributeKey)
		}
		if utf8.RuneCountInString(v) > MaxAttributeValue {
			return apierr.Invalid(field("metadata.attributes."+k), "%s must be at most %d characters long", field("metadata.attributes."+k), MaxAttributeValue)
		}
	}
	return nil
}

// Conversation returns a conversation the caller may read.
// Errors: NotFound.
func (s *Service) Conversation(ctx context.Context, id string) (*ent.Conversation, error) {
	nf := apierr.NotFoundf("No matching conversation found for id %q", id)
	if k, ok := ids.KindOf(id); !ok || k != ids.Conversation {
		return nil, nf
	}
	c, err := s.Client.Conversation.Get(ctx, id)
	if ent.IsNotFound(err) {
		return nil, nf
	}
	if err != nil {
		return nil, fmt.Errorf("read conversation: %w", err)
	}
	if err := reader(ctx, c.OrganizationID, false); err != nil {
		if apierr.CodeOf(err) == apierr.NotFound {
			return nil, nf
		}
		return nil, err
	}
	return c, nil
}

func newIssueID() string   { return ids.New(ids.ConversationIssue) }
func newClusterID() string { return ids.New(ids.IssuesCluster) }
