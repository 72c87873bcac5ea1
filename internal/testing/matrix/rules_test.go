package matrix_test

import "net/http"

// rule is the row of one operation: who may do it, who sees what it names,
// and what a caller allowed to do it sends.
type rule struct {
	// min is the least level that succeeds.
	min level
	// sees is the least level that sees what the operation names; a caller
	// below it gets 404 (a delete: 204, as for what does not exist), one
	// between sees and min gets 403.
	sees level
	// ok is the REST status of a success (200 when 0).
	ok int
	// input is the REST body or the GraphQL arguments, from the ids of the
	// request.
	input func(ids map[string]string) any
	// fresh: a success would spoil the fixture (it deletes, moves, merges,
	// or changes what later rows need), so allowed callers act on objects
	// made for them (world.fresh).
	fresh bool
	// renew names the kinds (by parameter name) world.fresh makes anew for
	// a GraphQL field; a REST route renews its parameters.
	renew []string
	// swap names route parameters (or arguments) taken from another id of
	// the fixture: spaceId → trashed for restoring.
	swap map[string]string
	// part: a delete of a part of what the route names (a customization
	// override, a membership of a group), which answers 204 when the part
	// is missing but 404 when what holds it is not seen.
	part bool
	// hidesNull: a GraphQL field that answers null, without an error, for
	// what the caller may not see (nodes).
	hidesNull bool
	// query is the REST query string a route needs (its required
	// parameters), without "?".
	query string
	// outside is the status a caller below sees gets in place of 404, when
	// the documented answer tells them apart from callers of an
	// organization that does not exist (joining by email domain: 400, the
	// organization does not admit the caller's domain).
	outside int
}

// Rows by who may act.
var (
	// public needs no token.
	public = rule{min: anonymous, sees: anonymous}
	// anyone signed in, member of A or not; the answer is about the caller.
	anyone = rule{min: signedIn, sees: signedIn}
	// members of A, guests included (a guest sees lists without content).
	members = rule{min: member, sees: member}
	// readers: every role.
	readers = rule{min: reader, sees: reader}
)

// needs is an operation that needs min, on something every role sees.
func needs(min level) rule { return rule{min: min, sees: reader} }

// inOrg is an operation that needs min in the organization, which every
// member sees (creating content: guests get 403, not 404).
func inOrg(min level) rule { return rule{min: min, sees: member} }

func (r rule) status(s int) rule { r.ok = s; return r }

func (r rule) with(in func(ids map[string]string) any) rule { r.input = in; return r }

func (r rule) spoils(kinds ...string) rule { r.fresh, r.renew = true, kinds; return r }

func (r rule) on(param, key string) rule {
	m := map[string]string{}
	for k, v := range r.swap {
		m[k] = v
	}
	m[param] = key
	r.swap = m
	return r
}

func (r rule) ofPart() rule { r.part = true; return r }

// asking gives the REST query string of a route with required parameters.
func (r rule) asking(query string) rule { r.query = query; return r }

func (r rule) orNull() rule { r.hidesNull = true; return r }

// refusesOutsiders gives the status of callers below sees (see outside).
func (r rule) refusesOutsiders(status int) rule { r.outside = status; return r }

// fixed is an input that names no id.
func fixed(v any) func(map[string]string) any { return func(map[string]string) any { return v } }

// expect is the REST status a caller gets; deleting tells a delete, which
// answers 204 for what the caller may not see.
func (r rule) expect(c *caller, deleting bool) int {
	switch {
	case c.level == anonymous && r.min > anonymous:
		return http.StatusUnauthorized
	case c.level >= r.min:
		if r.ok == 0 {
			return http.StatusOK
		}
		return r.ok
	case c.level >= r.sees:
		return http.StatusForbidden
	case deleting && !r.part:
		return http.StatusNoContent
	case r.outside != 0:
		return r.outside
	default:
		return http.StatusNotFound
	}
}

// param returns the id of a route parameter (or argument) for a request
// with ids.
func (r rule) param(name string, ids map[string]string) string {
	if k, ok := r.swap[name]; ok {
		return ids[k]
	}
	return ids[name]
}

// gitImport and gitExport are Git sync requests that pass every check (the
// matrix's servers work no jobs, so nothing is fetched).
var (
	gitImport = map[string]any{"url": "https://git.example.com/acme/docs.git", "ref": "refs/heads/main"}
	gitExport = map[string]any{"url": "https://git.example.com/acme/docs.git", "ref": "refs/heads/main", "commitMessage": "Docs"}
)

// withSpace adds the space to a GraphQL input.
func withSpace(in map[string]any, spaceID string) map[string]any {
	out := map[string]any{"space": spaceID}
	for k, v := range in {
		out[k] = v
	}
	return out
}
