package rest

import (
	"quire/ent"
	"quire/graph/model"
)

// OrganizationBlocked is an organization's block, set by an operator.
type OrganizationBlocked struct {
	Source string `json:"source,omitempty" enum:"backoffice,external,internal" doc:"backoffice: an operator of this Quire (quire admin org block)."`
	Reason string `json:"reason"`
}

func organizationBlocked(o *ent.Organization) *OrganizationBlocked {
	if o.BlockedReason == nil {
		return nil
	}
	b := &OrganizationBlocked{Reason: *o.BlockedReason}
	if o.BlockedSource != nil {
		b.Source = *o.BlockedSource
	}
	return b
}

// VisitorAuth is how readers of a space's published content sign in.
type VisitorAuth struct {
	Backend string `json:"backend" enum:"custom"`
}

func visitorAuth(v *model.VisitorAuth) *VisitorAuth {
	if v == nil {
		return nil
	}
	return &VisitorAuth{Backend: v.Backend}
}
