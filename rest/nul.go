package rest

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"quire/internal/apierr"
	"quire/internal/jsonguard"
)

// Text in Quire never holds U+0000 (NUL): PostgreSQL cannot store it in a
// text column, and SQLite would store it where PostgreSQL refuses, so both
// databases would not answer alike. A request carrying one in a path
// parameter, a query parameter or anywhere in its JSON body (a string or
// a key) is refused with 400 naming where, before it is decoded further.

// nulError says that field holds a NUL.
func nulError(field, where string) error {
	return apierr.Invalid(field, "%s", jsonguard.NULMessage(field, where))
}

// checkParamsNUL checks the path parameters of rt and every query
// parameter of r.
func checkParamsNUL(r *http.Request, rt *Route) error {
	for _, name := range pathParams(rt.Pattern) {
		if jsonguard.HasNUL(r.PathValue(name)) {
			return nulError(name, "text")
		}
	}
	if strings.IndexByte(r.URL.RawQuery, '%') < 0 {
		return nil // no escape, so no NUL
	}
	q := r.URL.Query()
	names := make([]string, 0, len(q))
	for name := range q {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if jsonguard.HasNUL(name) {
			return nulError("query parameter "+strconv.Quote(name), "text")
		}
		for _, v := range q[name] {
			if jsonguard.HasNUL(v) {
				return nulError(name, "text")
			}
		}
	}
	return nil
}

// pathParams lists the {name} segments of a pattern.
func pathParams(pattern string) []string {
	var out []string
	for _, seg := range strings.Split(pattern, "/") {
		if strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") {
			out = append(out, strings.TrimSuffix(strings.Trim(seg, "{}"), "..."))
		}
	}
	return out
}

// checkBodyNUL refuses a JSON body with U+0000 in a string or a key,
// naming the member that holds it ("body" for the body itself).
func checkBodyNUL(raw []byte) error {
	n, found := jsonguard.FindNULInJSON(raw)
	if !found {
		return nil
	}
	field := n.Path
	if field == "" {
		field = "body"
	}
	if n.InKey {
		return nulError(field, "its keys")
	}
	return nulError(field, "text")
}
