package gqlguard

import (
	"sync"

	"github.com/99designs/gqlgen/graphql/errcode"

	"quire/internal/apierr"
)

// protocolCodes are the extensions.code values of the refusals this
// package makes before an operation runs (query limits, node budget and
// page sizes, NUL characters). gqlgen's transports treat an error as a
// refusal of the request, not a result, when its code is registered as a
// protocol error: HTTP 422 (400 for application/graphql-response+json)
// instead of 200, an "error" message instead of "next" on WebSockets.
var protocolCodes = []string{CodeQueryTooDeep, CodeTooManyAliases, CodeComplexityLimit, string(apierr.BadRequest)}

// kindsOnce registers protocolCodes once per process: gqlgen keeps its
// error kinds in one process-wide table, written without a lock.
var kindsOnce sync.Once

// registerKinds registers protocolCodes with gqlgen. Every constructor of
// an extension that returns them calls it, so that a handler using one
// also answers its refusals as such, with nothing to remember at wiring.
func registerKinds() {
	kindsOnce.Do(func() {
		for _, c := range protocolCodes {
			errcode.RegisterErrorType(c, errcode.KindProtocol)
		}
	})
}
