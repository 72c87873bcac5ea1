package rest

import (
	"context"
	"encoding/json"
	"time"

	"quire/ent"
)

var jsonMarshal = json.Marshal

// Conversation is the documented conversation object.
type Conversation struct {
	Object      string            `json:"object" enum:"conversation"`
	ID          string            `json:"id"`
	Subject     *string           `json:"subject,omitempty"`
	CreatedAt   time.Time         `json:"createdAt"`
	ProcessedAt *time.Time        `json:"processedAt,omitempty"`
	Source      string            `json:"source"`
	Impact      string            `json:"impact,omitempty" enum:"low,medium,high"`
	URLs        *ConversationURLs `json:"urls"`
}

// ConversationURLs are a conversation's URLs.
type ConversationURLs struct {
	Location string  `json:"location"`
	Source   *string `json:"source,omitempty"`
}

// ConversationFull is a conversation with its parts and metadata.
type ConversationFull struct {
	Conversation *Conversation        `json:"conversation"`
	Parts        []ConversationPart   `json:"parts"`
	Metadata     ConversationMetadata `json:"metadata"`
}

// ConversationPart is a message of a conversation.
type ConversationPart struct {
	Type string `json:"type"`
	Role string `json:"role"`
	Body string `json:"body"`
}

// ConversationMetadata describes where a conversation comes from.
type ConversationMetadata struct {
	URL        *string           `json:"url,omitempty"`
	Attributes map[string]string `json:"attributes,omitempty"`
	CreatedAt  *time.Time        `json:"createdAt,omitempty"`
}

// ConversationIssue is the documented conversation-issue object.
type ConversationIssue struct {
	Object string `json:"object" enum:"conversation-issue"`
	ID     string `json:"id"`
	Title  string `json:"title"`
	// Summary is the user's words, as plain text (the details' quote).
	Summary      string          `json:"summary"`
	Details      json.RawMessage `json:"details" doc:"A JSON document: the user's words and why the issue has its impact."`
	Impact       string          `json:"impact" enum:"low,medium,high"`
	CreatedAt    time.Time       `json:"createdAt"`
	IngestedAt   time.Time       `json:"ingestedAt"`
	Conversation string          `json:"conversation"`
	Cluster      *string         `json:"cluster,omitempty"`
	URLs         *LocationURLs   `json:"urls"`
}

// IssueItem is an issue with its conversation.
type IssueItem struct {
	Issue        *ConversationIssue `json:"issue"`
	Conversation *Conversation      `json:"conversation"`
}

// LocationURLs hold an object's API location.
type LocationURLs struct {
	Location string `json:"location"`
}

// IssuesCluster is the documented issues-cluster object.
type IssuesCluster struct {
	Object      string             `json:"object" enum:"issues-cluster"`
	ID          string             `json:"id"`
	Label       string             `json:"label"`
	CreatedAt   time.Time          `json:"createdAt"`
	UpdatedAt   time.Time          `json:"updatedAt"`
	Icon        string             `json:"icon" maxLength:"50"`
	Summary     json.RawMessage    `json:"summary" doc:"A JSON document."`
	Muted       bool               `json:"muted"`
	Impact      string             `json:"impact" enum:"low,medium,high"`
	WeeklyPulse []int              `json:"weeklyPulse" doc:"Issues in each of the past 13 weeks (Monday to Sunday, UTC), oldest first."`
	Sources     map[string]int     `json:"sources"`
	Stats       IssuesClusterStats `json:"stats"`
	URLs        *ClusterURLs       `json:"urls"`
}

// IssuesClusterStats count a cluster's issues and conversations.
type IssuesClusterStats struct {
	Issues        int `json:"issues"`
	Conversations int `json:"conversations"`
}

// ClusterURLs are a cluster's URLs.
type ClusterURLs struct {
	Location string `json:"location"`
	App      string `json:"app"`
}

func (a *API) conversationsKind() *Kind[*ent.Conversation, *Conversation] {
	return presents(a.presentConversation)
}

func (a *API) presentConversation(ctx context.Context, c *ent.Conversation) (*Conversation, error) {
	cr := a.r.Conversation()
	urls, err := cr.Urls(ctx, c)
	if err != nil {
		return nil, err
	}
	return &Conversation{Object: "conversation", ID: c.ID, Subject: c.Subject, CreatedAt: c.CreatedAt.UTC(),
		ProcessedAt: utc(c.ProcessedAt), Source: c.Source, Impact: c.Impact,
		URLs: &ConversationURLs{Location: urls.Location, Source: urls.Source}}, nil
}

func utc(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

func (a *API) presentConversationFull(ctx context.Context, c *ent.Conversation) (*ConversationFull, error) {
	conv, err := a.presentConversation(ctx, c)
	if err != nil {
		return nil, err
	}
	out := &ConversationFull{Conversation: conv, Parts: make([]ConversationPart, len(c.Parts)),
		Metadata: ConversationMetadata{URL: c.MetadataURL, Attributes: c.MetadataAttributes, CreatedAt: utc(c.MetadataCreatedAt)}}
	for i, p := range c.Parts {
		out.Parts[i] = ConversationPart{Type: p.Type, Role: p.Role, Body: p.Body}
	}
	return out, nil
}

func (a *API) issuesKind() *Kind[*ent.ConversationIssue, *IssueItem] {
	return presents(func(ctx context.Context, is *ent.ConversationIssue) (*IssueItem, error) {
		conv, err := a.r.ConversationIssue().Conversation(ctx, is)
		if err != nil {
			return nil, err
		}
		c, err := a.presentConversation(ctx, conv)
		if err != nil {
			return nil, err
		}
		urls, err := a.r.ConversationIssue().Urls(ctx, is)
		if err != nil {
			return nil, err
		}
		return &IssueItem{Conversation: c, Issue: &ConversationIssue{
			Object: "conversation-issue", ID: is.ID, Title: is.Title, Summary: is.Excerpt, Details: json.RawMessage(is.Details),
			Impact: is.Impact, CreatedAt: is.CreatedAt.UTC(), IngestedAt: is.IngestedAt.UTC(), Conversation: is.ConversationID,
			Cluster: is.ClusterID, URLs: &LocationURLs{Location: urls.Location},
		}}, nil
	})
}

func (a *API) clustersKind() *Kind[*ent.IssuesCluster, *IssuesCluster] {
	return presents(func(ctx context.Context, c *ent.IssuesCluster) (*IssuesCluster, error) {
		urls, err := a.r.ConversationsIssuesCluster().Urls(ctx, c)
		if err != nil {
			return nil, err
		}
		pulse, err := a.r.ConversationsIssuesCluster().WeeklyPulse(ctx, c)
		if err != nil {
			return nil, err
		}
		sources := c.Sources
		if sources == nil {
			sources = map[string]int{}
		}
		return &IssuesCluster{
			Object: "issues-cluster", ID: c.ID, Label: c.Label, CreatedAt: c.CreatedAt.UTC(), UpdatedAt: c.UpdatedAt.UTC(),
			Icon: c.Icon, Summary: json.RawMessage(c.Summary), Muted: c.Muted, Impact: c.Impact,
			WeeklyPulse: pulse, Sources: sources,
			Stats: IssuesClusterStats{Issues: c.IssueCount, Conversations: c.ConversationCount},
			URLs:  &ClusterURLs{Location: urls.Location, App: urls.App},
		}, nil
	})
}
