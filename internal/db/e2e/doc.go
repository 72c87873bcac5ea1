// Package e2e holds the tests of internal/db's migrations, one of which
// serves an upgraded database through Quire's doors. They live apart from
// the package's own white-box tests so that building those does not build
// every layer above the package a second time.
package e2e
