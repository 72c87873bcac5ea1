package main

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/lib/pq"

	"quire/internal/auth"
	"quire/internal/testing/benchkit"
)

// The PostgreSQL ceiling: pgbench sends, on the same connection counts,
// the one statement that builds the whole answer to the site query
// (siteGraphQL, the bare handler's: the token's membership checked, the
// JSON built by the database), prepared once per connection. No HTTP, no
// GraphQL, no server process: what a server could reach at most over this
// PostgreSQL on this machine.

// siteNumbers numbers the seeded sites 1..N, since pgbench's random
// variables are integers: the statement finds its site by number.
var siteNumbers = []string{
	`DROP TABLE IF EXISTS peer.site_numbers`,
	`CREATE TABLE peer.site_numbers (n integer PRIMARY KEY, id text NOT NULL)`,
	`INSERT INTO peer.site_numbers SELECT ord, id FROM unnest($1::text[]) WITH ORDINALITY AS t(id, ord)`,
	`ANALYZE peer.site_numbers`,
}

// ceilingStatement is siteGraphQL with its site taken by number: one
// primary-key lookup more, in the same statement. hash and n are how it
// writes the token hash and the site number ($1 and $2 for database/sql,
// :hash and :n for pgbench).
func ceilingStatement(hash, n string) string {
	rest, ok := strings.CutPrefix(siteGraphQL, "WITH ")
	if !ok {
		panic("siteGraphQL no longer starts with WITH")
	}
	rest = strings.ReplaceAll(rest, "$2", "(SELECT id FROM pick)")
	rest = strings.ReplaceAll(rest, "$1", hash)
	return "WITH pick AS (SELECT id FROM peer.site_numbers WHERE n = " + n + "),\n" + rest
}

// ceilingScript is the pgbench script: a random site of n, then the one
// statement (pgbench wants it on a single line, or continued by
// backslashes; a single line is simplest).
func ceilingScript(sites int) string {
	stmt := strings.Join(strings.Fields(ceilingStatement(":hash", ":n")), " ")
	return fmt.Sprintf("\\set n random(1, %d)\n%s;\n", sites, stmt)
}

// ceiling sets the pgbench run up and checks once that its statement
// answers as Quire does for the first site.
type ceiling struct {
	bench  *benchkit.PGBench
	script string
	vars   map[string]string
}

func newCeiling(ctx context.Context, e *env, quireAnswer []byte) (*ceiling, string, error) {
	path, err := benchkit.FindPGBench()
	if err != nil {
		return nil, "", err
	}
	s := &e.seeded
	for _, stmt := range siteNumbers {
		var args []any
		if strings.Contains(stmt, "$1") {
			args = append(args, pq.Array(s.sites))
		}
		if _, err := e.d.SQL.ExecContext(ctx, stmt, args...); err != nil {
			return nil, "", fmt.Errorf("number the sites: %w", err)
		}
	}
	var doc string
	err = e.d.SQL.QueryRowContext(ctx, ceilingStatement("$1", "$2"), auth.Hash(s.token), 1).Scan(&doc)
	if err == sql.ErrNoRows {
		return nil, "", fmt.Errorf("the ceiling statement finds no site 1")
	}
	if err != nil {
		return nil, "", fmt.Errorf("the ceiling statement: %w", err)
	}
	if d := sameObjects(quireAnswer, []byte(doc)); d != "" {
		return nil, "", fmt.Errorf("the ceiling statement answers about other objects than quire: %s", d)
	}
	c := &ceiling{bench: &benchkit.PGBench{Path: path, URL: e.pgURL, Dir: e.tmp}, script: ceilingScript(len(s.sites)),
		vars: map[string]string{"hash": auth.Hash(s.token)}}
	note := fmt.Sprintf("the ceiling statement's answer names the same ids and titles as quire's (%d bytes vs %d)", len(doc), len(quireAnswer))
	return c, note, nil
}
