package loaders

import (
	"context"
	"database/sql"
	"sync"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"

	"quire/ent"
	"quire/ent/collection"
	"quire/ent/organization"
	"quire/ent/site"
	"quire/ent/space"
	"quire/ent/user"
)

// A statement is the SQL text of a read that ent's builder writes the same
// way for every key, apart from the arguments, each of which is the key:
// it is built on first use and kept, so that a hot read does not build it
// again (quoting every column name of the table on every request was a
// tenth of the CPU of a published profile). The text is in PostgreSQL's
// syntax ($1 and double-quoted names), which SQLite reads too.
type statement struct {
	build func(key string) *entsql.Selector

	once  sync.Once
	text  string
	nargs int  // arguments, each the key
	keyed bool // false: some argument is not the key; built on every use
}

// marker stands for the key when the text is built; it is no valid id.
const marker = "\x00key\x00"

func (s *statement) bind(key string) (string, []any) {
	s.once.Do(func() {
		text, args := s.build(marker).Query()
		s.text, s.nargs, s.keyed = text, len(args), true
		for _, a := range args {
			if a != marker {
				s.keyed = false
			}
		}
	})
	if !s.keyed {
		return s.build(key).Query()
	}
	args := make([]any, s.nargs)
	for i := range args {
		args[i] = key
	}
	return s.text, args
}

// selectAll starts a statement that reads every column of table.
func selectAll(table string, columns []string) *entsql.Selector {
	t := entsql.Table(table)
	cols := make([]string, len(columns))
	for i, c := range columns {
		cols[i] = t.C(c)
	}
	return entsql.Dialect(dialect.Postgres).Select(cols...).From(t)
}

// byID is the statement that reads the row of table whose id is the key.
func byID(table string, columns []string, id string) *statement {
	return &statement{build: func(key string) *entsql.Selector {
		s := selectAll(table, columns)
		return s.Where(entsql.EQ(s.C(id), key))
	}}
}

var (
	organizationByID = byID(organization.Table, organization.Columns, organization.FieldID)
	userByID         = byID(user.Table, user.Columns, user.FieldID)
	collectionByID   = byID(collection.Table, collection.Columns, collection.FieldID)
	spaceByID        = byID(space.Table, space.Columns, space.FieldID)
	siteByID         = byID(site.Table, site.Columns, site.FieldID)
)

// read sends st with key and reads the entities of its rows with scan, a
// client's ScanRows.
func read[T any](ctx context.Context, client *ent.Client, st *statement, key string, scan func(*sql.Rows) ([]T, error)) ([]T, error) {
	text, args := st.bind(key)
	rows, err := client.QueryContext(ctx, text, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	return scan(rows)
}

// byIDs reads the entities with the given ids: one with st, built once,
// and more with query, which ent builds for the number of ids.
func byIDs[T any](ctx context.Context, client *ent.Client, st *statement, keys []string,
	scan func(*sql.Rows) ([]T, error), query func() ([]T, error)) ([]T, error) {
	if len(keys) == 1 {
		return read(ctx, client, st, keys[0], scan)
	}
	return query()
}
