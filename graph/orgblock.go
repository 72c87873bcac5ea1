package graph

import (
	"quire/ent"
	"quire/graph/model"
)

// organizationBlocked is an organization's block, nil while it is not
// blocked (see quire admin org block).
func organizationBlocked(o *ent.Organization) *model.OrganizationBlocked {
	if o.BlockedReason == nil {
		return nil
	}
	return &model.OrganizationBlocked{Source: o.BlockedSource, Reason: *o.BlockedReason}
}
