// Package graphiql serves GraphiQL, the in-browser GraphQL IDE, for Quire's
// GET /graphql: a page with a field for the API token, the docs explorer and
// the query history. Everything it needs is embedded in the binary, so the
// page makes no request beyond the server's own origin (no CDN, no web fonts).
//
// The files in assets/ are built, minified, from the npm package graphiql at
// the version pinned in web/graphiql/package.json, and are committed so that
// building Quire needs no npm. To rebuild them after changing that package or
// web/graphiql/src:
//
//	cd web/graphiql && npm ci && npm run build
//
// and commit internal/graphiql/assets. `npm test` in web/graphiql then drives
// Chromium against a real quire server (web/graphiql/test/browser.mjs).
package graphiql
