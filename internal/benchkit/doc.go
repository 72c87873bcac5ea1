// Package benchkit holds what Quire's benchmark commands (cmd/sitebench,
// cmd/quirebench) share: load generators (a built-in one whose requests
// may vary, wrk, hey) with exact percentiles, a throwaway PostgreSQL
// cluster, seeding through the REST API, the one-statement baseline of
// the published site profile, and running a server process while
// sampling its RSS and reading its /metrics. Everything binds loopback
// addresses and every wait is bounded.
package benchkit
