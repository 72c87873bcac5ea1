package rest

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"quire/ent"
	"quire/graph/model"
)

// The presenters of change requests, merges and PDF links.

// changeRequests presents change requests; the resolvers warm a page of
// them (their spaces, creators and contributors) when they list it.
func (a *API) changeRequests() *Kind[*ent.ChangeRequest, *ChangeRequest] {
	return presents(a.presentChangeRequest)
}

func (c *ChangeRequest) apiLocation() string { return c.URLs.Location }

// merged is the outcome of a merge or an update of a change request.
type merged struct {
	res *model.MergeResult
	cr  *ent.ChangeRequest
}

func (a *API) merges() *Kind[merged, *MergeResult] {
	return presents(func(_ context.Context, m merged) (*MergeResult, error) {
		res, cr := m.res, m.cr
		out := &MergeResult{Result: string(res.Result)}
		switch {
		case res.Revision != nil:
			out.Revision = *res.Revision
		case res.ChangeRequest != nil:
			out.Revision = res.ChangeRequest.RevisionID
		default:
			out.Revision = cr.RevisionID
		}
		if res.Result == model.MergeOutcomeConflicts {
			out.Conflicts = mergeConflicts(res.Conflicts)
		}
		return out, nil
	})
}

var pdfLinks = presents(func(_ context.Context, url string) (*PDFURL, error) { return &PDFURL{URL: url}, nil })

// ChangeRequest is the documented change request.
type ChangeRequest struct {
	Object                 string          `json:"object" enum:"change-request"`
	ID                     string          `json:"id"`
	Number                 int             `json:"number"`
	Status                 string          `json:"status" enum:"draft,open,archived,merged"`
	Subject                string          `json:"subject"`
	Description            json.RawMessage `json:"description,omitempty" doc:"A JSON document."`
	CreatedBy              *User           `json:"createdBy,omitempty"`
	CreatedAt              time.Time       `json:"createdAt"`
	UpdatedAt              time.Time       `json:"updatedAt"`
	Space                  string          `json:"space"`
	Revision               string          `json:"revision" doc:"The change request's current revision."`
	RevisionInitial        string          `json:"revisionInitial" doc:"The space revision it started from."`
	RevisionMergedAncestor *string         `json:"revisionMergedAncestor,omitempty" doc:"The space revision last brought in by an update."`
	RevisionMerged         *string         `json:"revisionMerged,omitempty" doc:"The space revision its merge created."`
	Comments               int             `json:"comments"`
	Outdated               bool            `json:"outdated"`
	// ConversationsIssuesCluster is the issues cluster it addresses.
	ConversationsIssuesCluster *string            `json:"conversationsIssuesCluster,omitempty"`
	URLs                       *ChangeRequestUrls `json:"urls"`
}

// MergeResult is the body of merge and update.
type MergeResult struct {
	Revision string `json:"revision" doc:"The revision written; on conflicts, the change request's current revision."`
	Result   string `json:"result" enum:"merge,update,conflicts"`
	// Conflicts is a Quire extension: what clashed.
	Conflicts []*MergeConflict `json:"conflicts,omitempty" doc:"Quire extension: on conflicts, what clashes (kind page-title, page-content, page-position, page-deleted, file, variable or reusable-content)."`
}

// PDFURL is the body of the PDF read.
type PDFURL struct {
	URL string `json:"url" doc:"Signed link to the PDF; it expires."`
}

// presentChangeRequest presents a change request.
func (a *API) presentChangeRequest(ctx context.Context, cr *ent.ChangeRequest) (*ChangeRequest, error) {
	r := a.r.ChangeRequest()
	status, err := r.Status(ctx, cr)
	if err != nil {
		return nil, err
	}
	desc, err := r.Description(ctx, cr)
	if err != nil {
		return nil, err
	}
	var rawDesc json.RawMessage
	if desc != nil && desc.D != nil {
		if rawDesc, err = json.Marshal(desc.D); err != nil {
			return nil, fmt.Errorf("encode description of change request %s: %w", cr.ID, err)
		}
	}
	var createdBy *User
	u, err := r.CreatedBy(ctx, cr)
	if err != nil {
		return nil, err
	}
	if u != nil {
		if createdBy, err = a.presentUser(ctx, u); err != nil {
			return nil, err
		}
	}
	comments, err := r.Comments(ctx, cr)
	if err != nil {
		return nil, err
	}
	outdated, err := r.Outdated(ctx, cr)
	if err != nil {
		return nil, err
	}
	urls, err := r.Urls(ctx, cr)
	if err != nil {
		return nil, err
	}
	return &ChangeRequest{
		Object: "change-request", ID: cr.ID, Number: cr.Number, Status: string(status), Subject: cr.Subject,
		Description: rawDesc, CreatedBy: createdBy, CreatedAt: cr.CreatedAt.UTC(), UpdatedAt: cr.UpdatedAt.UTC(),
		Space: cr.SpaceID, Revision: cr.RevisionID, RevisionInitial: cr.RevisionInitial,
		RevisionMergedAncestor: cr.RevisionMergedAncestor, RevisionMerged: cr.RevisionMerged,
		Comments: comments, Outdated: outdated, URLs: changeRequestUrls(urls), ConversationsIssuesCluster: cr.ConversationsIssuesCluster,
	}, nil
}
