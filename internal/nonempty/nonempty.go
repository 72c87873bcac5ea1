// Package nonempty turns empty strings into absent values, the way
// resolver filters and ent's nillable setters take them.
package nonempty

// String is nil for the empty string and a pointer to s otherwise: a
// query parameter or input field left empty means "not given".
func String(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
