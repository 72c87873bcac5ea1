// Package matrix holds Quire's authorization matrix, as tests only: every
// REST route (from the route table) and every GraphQL root field and
// mutation (from the schema, by introspection), each asked by every kind of
// caller (the organization's admin, editor, reader and guest, a member and
// an admin of another organization, and callers without a valid token),
// against one fixture of two organizations per database. The expected
// answers are a table keyed by operation: the least level that succeeds and
// the least level that sees the object; an operation without a row fails
// the test, so new routes and fields are covered as soon as they exist.
package matrix
