package auth

import "quire/internal/types"

// Grant is a level a user was given on a space or a collection (Target),
// directly or through a team, in an organization.
type Grant struct {
	Organization string
	Target       string
	Level        types.Role
}

// Grants are a user's grants, the highest level by target: what
// authz adds to the levels that roles and default levels give.
type Grants struct {
	byTarget map[string]Grant
	orgs     map[string]bool
}

// NewGrants gathers grants, keeping the highest level of each target.
func NewGrants(list []Grant) *Grants {
	g := &Grants{byTarget: make(map[string]Grant, len(list)), orgs: map[string]bool{}}
	for _, x := range list {
		if cur, ok := g.byTarget[x.Target]; ok && cur.Organization == x.Organization && cur.Level.Rank() >= x.Level.Rank() {
			continue
		}
		g.byTarget[x.Target] = x
		g.orgs[x.Organization] = true
	}
	return g
}

// In reports whether any grant is in the organization: without one, no
// level there needs them.
func (g *Grants) In(org string) bool { return g != nil && g.orgs[org] }

// Level is the level granted on a target of an organization; "" for none.
// A grant made in another organization (the content was transferred since)
// does not count.
func (g *Grants) Level(org, target string) types.Role {
	if g == nil {
		return ""
	}
	if x, ok := g.byTarget[target]; ok && x.Organization == org {
		return x.Level
	}
	return ""
}
