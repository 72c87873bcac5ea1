// Package benchkit holds what Quire's benchmark commands (cmd/sitebench,
// cmd/quirebench) share: load generators (a built-in one whose requests
// may vary, wrk, hey) with exact percentiles, a throwaway PostgreSQL
// cluster, seeding through the REST API, the one-statement baseline of
// the published site profile, running a server process while sampling
// its RSS and reading its /metrics, pgbench runs with exact percentiles,
// and a cache outside the repository for what a comparison downloads (a
// Node binary and npm packages, from the npm registry). Everything binds
// loopback addresses and every wait is bounded.
package benchkit
