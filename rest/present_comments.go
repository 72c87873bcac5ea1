package rest

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"quire/ent"
	"quire/graph"
	"quire/internal/apierr"
	"quire/internal/types"
)

// The presenters of comments, replies, commenters and reviews.

// Comment is the documented comment.
type Comment struct {
	Object      string                    `json:"object" enum:"comment"`
	ID          string                    `json:"id"`
	PostedBy    *User                     `json:"postedBy,omitempty"`
	PostedAt    time.Time                 `json:"postedAt"`
	EditedAt    *time.Time                `json:"editedAt,omitempty"`
	Reactions   []ReactionJSON            `json:"reactions"`
	Replies     int                       `json:"replies"`
	Repliers    []ReplierJSON             `json:"repliers"`
	Body        BodyJSON                  `json:"body"`
	Target      *CommentTarget            `json:"target"`
	URLs        *CommentUrls              `json:"urls"`
	Permissions *graph.CommentPermissions `json:"permissions"`
	Status      string                    `json:"status" enum:"open,resolved"`
	ResolvedAt  *time.Time                `json:"resolvedAt,omitempty"`
	ResolvedBy  *User                     `json:"resolvedBy,omitempty"`
}

func (c *Comment) apiLocation() string { return c.URLs.Location }

// CommentReply is the documented reply.
type CommentReply struct {
	Object      string                    `json:"object" enum:"comment-reply"`
	ID          string                    `json:"id"`
	PostedBy    *User                     `json:"postedBy,omitempty"`
	PostedAt    time.Time                 `json:"postedAt"`
	EditedAt    *time.Time                `json:"editedAt,omitempty"`
	Reactions   []ReactionJSON            `json:"reactions"`
	Body        BodyJSON                  `json:"body"`
	URLs        *CommentUrls              `json:"urls"`
	Permissions *graph.CommentPermissions `json:"permissions"`
}

// BodyJSON is a body as the request's format asks: Markdown or a document.
type BodyJSON struct {
	Markdown *string         `json:"markdown,omitempty"`
	Document json.RawMessage `json:"document,omitempty" doc:"A JSON document."`
}

// ReactionJSON is an emoji with who reacted with it.
type ReactionJSON struct {
	Emoji string             `json:"emoji"`
	Count int                `json:"count"`
	Users []ReactionUserJSON `json:"users"`
}

// ReactionUserJSON is one user's reaction.
type ReactionUserJSON struct {
	User      *User     `json:"user"`
	ReactedAt time.Time `json:"reactedAt"`
}

// ReplierJSON is a user who replied.
type ReplierJSON struct {
	UpdatedAt time.Time `json:"updatedAt"`
	Count     int       `json:"count"`
	User      *User     `json:"user"`
}

// Commenter is the documented organization member, as commenter lists
// give them.
type Commenter struct {
	Object     string      `json:"object" enum:"member"`
	ID         string      `json:"id" doc:"The user's id."`
	Role       *types.Role `json:"role" doc:"null for a guest."`
	User       *User       `json:"user"`
	Disabled   bool        `json:"disabled"`
	JoinedAt   time.Time   `json:"joinedAt"`
	LastSeenAt *time.Time  `json:"lastSeenAt,omitempty"`
	SSO        bool        `json:"sso"`
	Spaces     int         `json:"spaces"`
	Teams      int         `json:"teams"`
}

// formatOf is the format bodies are shown in: the request's format
// parameter, markdown by default.
func formatOf(req *Request) (string, error) {
	switch f := req.HTTP.URL.Query().Get("format"); f {
	case "", "markdown":
		return "markdown", nil
	case "document":
		return f, nil
	default:
		return "", apierr.Invalid("format", "format must be one of markdown, document")
	}
}

// formatParam documents the format parameter of routes that read a body.
var formatParam = Param{Name: "format", Type: "string", Enum: []string{"markdown", "document"},
	Description: "markdown (default): bodies as `{markdown}`; document: as `{document}`."}

// presentBody shows a rendered body in the request's format.
func presentBody(req *Request, b interface {
	Markdown() (string, error)
}, raw func() ([]byte, error)) (BodyJSON, error) {
	f, err := formatOf(req)
	if err != nil {
		return BodyJSON{}, err
	}
	if f == "document" {
		d, err := raw()
		return BodyJSON{Document: d}, err
	}
	md, err := b.Markdown()
	return BodyJSON{Markdown: &md}, err
}

// comments presents comments. A list's route reads its page with
// graph.EveryCommentPart, so that presenting each comment reads the
// request's caches.
func (a *API) comments() *Kind[*ent.Comment, *Comment] {
	return &Kind[*ent.Comment, *Comment]{one: a.presentComment}
}

// replies presents replies, read as comments are.
func (a *API) replies() *Kind[*ent.CommentReply, *CommentReply] {
	return &Kind[*ent.CommentReply, *CommentReply]{one: a.presentReply}
}

func (a *API) presentComment(ctx context.Context, req *Request, c *ent.Comment) (*Comment, error) {
	users := a.usersIn(ctx)
	r := a.r.Comment()
	rendered, err := r.Body(ctx, c)
	if err != nil {
		return nil, err
	}
	body, err := presentBody(req, rendered, func() ([]byte, error) {
		d, err := rendered.Document()
		if err != nil {
			return nil, err
		}
		return json.Marshal(d.D)
	})
	if err != nil {
		return nil, err
	}
	out := &Comment{Object: "comment", ID: c.ID, PostedAt: c.PostedAt.UTC(), EditedAt: utc(c.EditedAt),
		Replies: c.Replies, Body: body, Status: c.Status, ResolvedAt: utc(c.ResolvedAt)}
	if out.PostedBy, err = users(r.PostedBy(ctx, c)); err != nil {
		return nil, err
	}
	if out.ResolvedBy, err = users(r.ResolvedBy(ctx, c)); err != nil {
		return nil, err
	}
	reactions, err := r.Reactions(ctx, c)
	if err != nil {
		return nil, err
	}
	if out.Reactions, err = a.presentReactions(ctx, reactions); err != nil {
		return nil, err
	}
	repliers, err := r.Repliers(ctx, c)
	if err != nil {
		return nil, err
	}
	out.Repliers = make([]ReplierJSON, 0, len(repliers))
	for _, rp := range repliers {
		u, err := users(a.r.CommentReplier().User(ctx, rp))
		if err != nil {
			return nil, err
		}
		out.Repliers = append(out.Repliers, ReplierJSON{UpdatedAt: rp.UpdatedAt.UTC(), Count: rp.Count, User: u})
	}
	if out.Target, err = present(commentTarget)(r.Target(ctx, c)); err != nil {
		return nil, err
	}
	if out.URLs, err = present(commentUrls)(r.Urls(ctx, c)); err != nil {
		return nil, err
	}
	if out.Permissions, err = r.Permissions(ctx, c); err != nil {
		return nil, err
	}
	return out, nil
}

func (a *API) presentReply(ctx context.Context, req *Request, rp *ent.CommentReply) (*CommentReply, error) {
	users := a.usersIn(ctx)
	r := a.r.CommentReply()
	rendered, err := r.Body(ctx, rp)
	if err != nil {
		return nil, err
	}
	body, err := presentBody(req, rendered, func() ([]byte, error) {
		d, err := rendered.Document()
		if err != nil {
			return nil, err
		}
		return json.Marshal(d.D)
	})
	if err != nil {
		return nil, err
	}
	out := &CommentReply{Object: "comment-reply", ID: rp.ID, PostedAt: rp.PostedAt.UTC(), EditedAt: utc(rp.EditedAt), Body: body}
	if out.PostedBy, err = users(r.PostedBy(ctx, rp)); err != nil {
		return nil, err
	}
	reactions, err := r.Reactions(ctx, rp)
	if err != nil {
		return nil, err
	}
	if out.Reactions, err = a.presentReactions(ctx, reactions); err != nil {
		return nil, err
	}
	if out.URLs, err = present(commentUrls)(r.Urls(ctx, rp)); err != nil {
		return nil, err
	}
	if out.Permissions, err = r.Permissions(ctx, rp); err != nil {
		return nil, err
	}
	return out, nil
}

func (a *API) presentReactions(ctx context.Context, reactions []*graph.Reaction) ([]ReactionJSON, error) {
	users := a.usersIn(ctx)
	out := make([]ReactionJSON, 0, len(reactions))
	for _, re := range reactions {
		j := ReactionJSON{Emoji: re.Emoji, Count: re.Count(), Users: make([]ReactionUserJSON, 0, len(re.Users))}
		for i := range re.Users {
			u, err := users(a.r.ReactionUser().User(ctx, &re.Users[i]))
			if err != nil {
				return nil, err
			}
			j.Users = append(j.Users, ReactionUserJSON{User: u, ReactedAt: re.Users[i].ReactedAt.UTC()})
		}
		out = append(out, j)
	}
	return out, nil
}

// usersIn presents the users resolvers return (nil for none), in ctx.
func (a *API) usersIn(ctx context.Context) func(u *ent.User, err error) (*User, error) {
	return func(u *ent.User, err error) (*User, error) {
		if err != nil || u == nil {
			return nil, err
		}
		return a.presentUser(ctx, u)
	}
}

// commenters presents the members of a list of commenters (reading them
// reads their users).
func (a *API) commenters() *Kind[*ent.Member, *Commenter] {
	return presents(a.presentCommenter)
}

func (a *API) presentCommenter(ctx context.Context, m *ent.Member) (*Commenter, error) {
	users := a.usersIn(ctx)
	r := a.r.Member()
	u, err := users(r.User(ctx, m))
	if err != nil {
		return nil, err
	}
	return &Commenter{Object: "member", ID: m.UserID, Role: m.Role, User: u, Disabled: m.Disabled,
		JoinedAt: m.JoinedAt.UTC(), LastSeenAt: utc(m.LastSeenAt), SSO: m.SSO}, nil
}

// ChangeRequestReview is the documented review.
type ChangeRequestReview struct {
	Object      string                   `json:"object" enum:"change-request-review"`
	ID          string                   `json:"id"`
	Revision    string                   `json:"revision" doc:"The change request's revision it was made against."`
	Reviewer    *User                    `json:"reviewer,omitempty"`
	RequestedBy *User                    `json:"requestedBy,omitempty" doc:"Who had asked for it; absent when it was given unasked."`
	Status      string                   `json:"status" enum:"approved,changes-requested"`
	Outdated    bool                     `json:"outdated" doc:"True once a later review by the same reviewer, or a new request for one, supersedes it."`
	Comment     *Comment                 `json:"comment,omitempty"`
	CreatedAt   time.Time                `json:"createdAt"`
	UpdatedAt   time.Time                `json:"updatedAt"`
	URLs        *ChangeRequestReviewUrls `json:"urls"`
}

func (r *ChangeRequestReview) apiLocation() string { return r.URLs.Location }

// RequestedReviewer is a pending request for a review.
type RequestedReviewer struct {
	Object      string    `json:"object" enum:"change-request-requested-reviewer"`
	Revision    string    `json:"revision" doc:"The change request's revision when the review was asked for."`
	RequestedBy *User     `json:"requestedBy,omitempty"`
	CreatedAt   time.Time `json:"createdAt"`
	Kind        string    `json:"kind" enum:"user"`
	User        *User     `json:"user"`
}

// RequestedReviewers is the answer to a request for reviews.
type RequestedReviewers struct {
	Users []*RequestedReviewer `json:"users" doc:"The requests of the users asked."`
}

// reviews presents reviews. The list's route reads its page with
// graph.EveryReviewPart.
func (a *API) reviews() *Kind[*ent.ChangeRequestReview, *ChangeRequestReview] {
	return &Kind[*ent.ChangeRequestReview, *ChangeRequestReview]{one: a.presentReview}
}

func (a *API) presentReview(ctx context.Context, req *Request, rv *ent.ChangeRequestReview) (*ChangeRequestReview, error) {
	users := a.usersIn(ctx)
	r := a.r.ChangeRequestReview()
	out := &ChangeRequestReview{Object: "change-request-review", ID: rv.ID, Revision: rv.RevisionID, Status: rv.Status,
		Outdated: rv.Outdated, CreatedAt: rv.CreatedAt.UTC(), UpdatedAt: rv.UpdatedAt.UTC()}
	var err error
	if out.Reviewer, err = users(r.Reviewer(ctx, rv)); err != nil {
		return nil, err
	}
	if out.RequestedBy, err = users(r.RequestedBy(ctx, rv)); err != nil {
		return nil, err
	}
	c, err := r.Comment(ctx, rv)
	if err != nil {
		return nil, err
	}
	if c != nil {
		if out.Comment, err = a.presentComment(ctx, req, c); err != nil {
			return nil, err
		}
	}
	if out.URLs, err = present(changeRequestReviewUrls)(r.Urls(ctx, rv)); err != nil {
		return nil, err
	}
	return out, nil
}

// requestedReviewers presents pending review requests (reading them reads
// their users).
func (a *API) requestedReviewers() *Kind[*ent.ChangeRequestReviewer, *RequestedReviewer] {
	return presents(a.presentRequested)
}

func (a *API) presentRequested(ctx context.Context, rr *ent.ChangeRequestReviewer) (*RequestedReviewer, error) {
	users := a.usersIn(ctx)
	r := a.r.ChangeRequestRequestedReviewer()
	out := &RequestedReviewer{Object: "change-request-requested-reviewer", Revision: rr.RevisionID,
		CreatedAt: rr.CreatedAt.UTC(), Kind: "user"}
	var err error
	if out.User, err = users(r.User(ctx, rr)); err != nil {
		return nil, err
	}
	if out.User == nil {
		return nil, fmt.Errorf("the user %s asked for a review is missing", rr.UserID)
	}
	if out.RequestedBy, err = users(r.RequestedBy(ctx, rr)); err != nil {
		return nil, err
	}
	return out, nil
}
