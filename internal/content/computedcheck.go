package content

import "quire/internal/types"

// CheckComputed checks a computed definition as a page's is checked
// (type, dependencies, size), for a source computed without a page (the
// read-only getComputedDocument); the error names field.
// Errors: BadRequest.
func CheckComputed(field string, in *types.PageComputed) (*types.PageComputed, error) {
	return checkComputed(field, in)
}
