package catalog

import (
	"context"
	"fmt"
	"sort"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"

	"quire/ent"
	"quire/ent/collection"
	"quire/ent/organization"
	"quire/ent/space"
	"quire/internal/apierr"
	"quire/internal/position"
)

// Pointer names a sibling in a position: Type is "space" or "collection".
type Pointer struct {
	Type string
	ID   string
}

// Position places an item before and/or after a sibling.
type Position struct {
	Before *Pointer
	After  *Pointer
}

type sibling struct {
	kind, id, pos string
}

// siblings returns the live children of a parent (or of the organization's
// root when parentID is nil), ordered, without the item being moved.
// Called inside a transaction, it first locks the organization row on
// PostgreSQL, so that concurrent transactions placing items in the same
// organization do not read the same siblings and pick the same position
// (SQLite transactions already take the write lock when they begin).
func siblings(ctx context.Context, c *ent.Client, orgID string, parentID *string, exclude string) ([]sibling, error) {
	_, err := c.Organization.Query().Unique(false).Where(organization.ID(orgID), func(s *entsql.Selector) {
		if s.Dialect() == dialect.Postgres {
			s.For(entsql.LockNoKeyUpdate)
		}
	}).IDs(ctx)
	if err != nil {
		return nil, fmt.Errorf("lock organization: %w", err)
	}
	cq := c.Collection.Query().Where(collection.OrganizationID(orgID))
	sq := c.Space.Query().Where(space.OrganizationID(orgID), space.DeletedAtIsNil())
	if parentID == nil {
		cq = cq.Where(collection.ParentIDIsNil())
		sq = sq.Where(space.ParentIDIsNil())
	} else {
		cq = cq.Where(collection.ParentID(*parentID))
		sq = sq.Where(space.ParentID(*parentID))
	}
	var out []sibling
	var cs []struct {
		ID       string `json:"id"`
		Position string `json:"position"`
	}
	if err := cq.Select(collection.FieldID, collection.FieldPosition).Scan(ctx, &cs); err != nil {
		return nil, fmt.Errorf("list sibling collections: %w", err)
	}
	for _, x := range cs {
		if x.ID != exclude {
			out = append(out, sibling{"collection", x.ID, x.Position})
		}
	}
	var ss []struct {
		ID       string `json:"id"`
		Position string `json:"position"`
	}
	if err := sq.Select(space.FieldID, space.FieldPosition).Scan(ctx, &ss); err != nil {
		return nil, fmt.Errorf("list sibling spaces: %w", err)
	}
	for _, x := range ss {
		if x.ID != exclude {
			out = append(out, sibling{"space", x.ID, x.Position})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].pos != out[j].pos {
			return out[i].pos < out[j].pos
		}
		return out[i].id < out[j].id
	})
	return out, nil
}

// endOf returns a position after every sibling.
func endOf(sibs []sibling) string {
	if len(sibs) == 0 {
		return position.First()
	}
	return position.After(sibs[len(sibs)-1].pos)
}

// samePlace reports whether an item keyed old sorts among sibs exactly
// where one keyed new does: no sibling lies between the two keys, so a move
// from old to new would not change the order.
func samePlace(sibs []sibling, old, new string) bool {
	lo, hi := min(old, new), max(old, new)
	for _, s := range sibs {
		if s.pos >= lo && s.pos <= hi {
			return false
		}
	}
	return true
}

// placeAmong computes the position for pos among sibs. A nil pos places the
// item at the end. Pointers must name siblings in the target parent.
func placeAmong(sibs []sibling, pos *Position) (string, error) {
	if pos == nil || (pos.Before == nil && pos.After == nil) {
		return endOf(sibs), nil
	}
	find := func(field string, p *Pointer) (int, error) {
		if p.Type != "space" && p.Type != "collection" {
			return 0, apierr.Invalid("position."+field+".type", "position.%s.type must be \"space\" or \"collection\"", field)
		}
		for i, s := range sibs {
			if s.kind == p.Type && s.id == p.ID {
				return i, nil
			}
		}
		return 0, apierr.Invalid("position."+field, "Invalid position: %s %q is not a sibling in the target location", p.Type, p.ID)
	}
	lo, hi := "", ""
	if pos.After != nil {
		i, err := find("after", pos.After)
		if err != nil {
			return "", err
		}
		lo = sibs[i].pos
		if pos.Before == nil && i+1 < len(sibs) {
			hi = sibs[i+1].pos
		}
	}
	if pos.Before != nil {
		i, err := find("before", pos.Before)
		if err != nil {
			return "", err
		}
		hi = sibs[i].pos
		if pos.After == nil && i > 0 {
			lo = sibs[i-1].pos
		}
	}
	if lo != "" && hi != "" && lo >= hi {
		return "", apierr.Invalid("position", "Invalid position: \"after\" must come before \"before\"")
	}
	if lo == hi && lo != "" {
		return "", apierr.Invalid("position", "Invalid position")
	}
	key, err := position.Between(lo, hi)
	if err != nil {
		return "", apierr.Invalid("position", "Invalid position: %v", err)
	}
	return key, nil
}
