package orgs

import (
	"context"
	"fmt"
	"time"

	"quire/ent"
	"quire/internal/apierr"
	"quire/internal/auth"
	"quire/internal/authz"
	"quire/internal/document"
	"quire/internal/loaders"
)

// Instructions are the instructions an organization gives AI agents.
type Instructions struct {
	Organization string
	Document     *document.Document
	UpdatedAt    time.Time
	// UpdatedBy is the id of the user who saved them; empty until saved.
	UpdatedBy string
}

// AgentInstructions returns an organization's instructions to AI agents:
// an empty document, dated from the organization's creation, until an
// admin saves some. Every member with a role may read them.
// Errors: NotFound, Forbidden (guests).
func (s *Service) AgentInstructions(ctx context.Context, orgID string) (*Instructions, error) {
	role, isMember, err := authz.OrgRole(ctx, orgID)
	if err != nil {
		return nil, err
	}
	if !isMember {
		return nil, notFoundOrg(orgID)
	}
	if role == authz.None {
		return nil, apierr.Forbiddenf("Guests may not read the organization's agent instructions")
	}
	row, err := s.Client.AgentInstructions.Get(ctx, orgID)
	if ent.IsNotFound(err) {
		o, err := loaders.For(ctx).OrganizationByID.Load(ctx, orgID)()
		if err != nil {
			return nil, err
		}
		return &Instructions{Organization: orgID, Document: &document.Document{Data: map[string]any{}}, UpdatedAt: o.CreatedAt}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read agent instructions: %w", err)
	}
	d, err := document.ParseStored([]byte(row.Document))
	if err != nil {
		return nil, fmt.Errorf("decode agent instructions of %s: %w", orgID, err)
	}
	return &Instructions{Organization: orgID, Document: d, UpdatedAt: row.UpdatedAt, UpdatedBy: row.UpdatedBy}, nil
}

// UpdateAgentInstructions replaces an organization's instructions to AI
// agents (a document, checked against the document limits by the caller's
// parse).
// Errors: NotFound, Forbidden (not an admin).
func (s *Service) UpdateAgentInstructions(ctx context.Context, orgID string, d *document.Document) (*Instructions, error) {
	if err := requireAdmin(ctx, orgID); err != nil {
		return nil, err
	}
	raw, err := d.AppendJSON(nil)
	if err != nil {
		return nil, fmt.Errorf("encode agent instructions: %w", err)
	}
	by := ""
	if v := auth.Viewer(ctx); v != nil {
		by = v.ID
	}
	now := s.Now()
	err = s.Client.AgentInstructions.Create().SetID(orgID).SetDocument(string(raw)).SetUpdatedAt(now).SetUpdatedBy(by).
		OnConflictColumns("id").UpdateNewValues().Exec(ctx)
	if err != nil {
		return nil, fmt.Errorf("save agent instructions: %w", err)
	}
	return &Instructions{Organization: orgID, Document: d, UpdatedAt: now, UpdatedBy: by}, nil
}
