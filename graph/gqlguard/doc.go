// Package gqlguard holds the GraphQL server's policy that runs before any
// resolver: the query limits (parser tokens, depth, aliases), the node
// budget and page sizes, the cost in rate-limit points, the validation
// rules, the refusal of NUL characters, and the raw request body that
// JSON arguments are read back from in the order the client wrote them.
// None of it calls a resolver, so it is tested on small schemas of its
// own; server installs it on the gqlgen handler.
package gqlguard
