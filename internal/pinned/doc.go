// Package pinned holds the test that fails when a library whose internals
// Quire's shortcuts depend on (gqlgen, gqlparser, ent) changes version, so
// that the shortcuts are checked again as UPGRADING.md describes.
package pinned
