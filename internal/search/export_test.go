package search

// FTSOf is the FTS5 expression of a query, for tests.
func FTSOf(q string) string { return parse(q).fts5() }

// AnyOf is the FTS5 expression of any word of a query, for tests.
func AnyOf(q string) string { return parse(q).anyFTS5() }
