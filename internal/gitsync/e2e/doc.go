// Package e2e holds the tests of internal/gitsync that go through Quire's
// doors (a server of internal/testing/testenv, on SQLite and on PostgreSQL)
// over real repositories. They live apart from the package's own white-box
// tests so that building those does not build every layer above the package
// a second time.
package e2e
