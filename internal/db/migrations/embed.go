package migrations

import (
	"embed"
	"fmt"
	"io/fs"

	"ariga.io/atlas/sql/migrate"
)

// embedded holds the committed migration directories. Their files must
// never change once released: databases record each file's checksum.
//
//go:embed sqlite postgres
var embedded embed.FS

// Dir returns the embedded migration directory of an ent dialect
// (dialect.SQLite or dialect.Postgres), as a fresh in-memory copy.
func Dir(dialectName string) (migrate.Dir, error) {
	name, err := DirName(dialectName)
	if err != nil {
		return nil, err
	}
	sub, err := fs.Sub(embedded, name)
	if err != nil {
		return nil, fmt.Errorf("embedded migrations %s: %w", name, err)
	}
	return FromFS(sub)
}
