package view

// ReservedIDs are the id attributes the templates give parts of a page.
// Rendered content must not use them (see render.Options.ReservedIDs), so
// that every id of a page stays unique.
var ReservedIDs = []string{"content", "error-q", "outline-title", "search-box", "search-page-q", "signin-token"}
