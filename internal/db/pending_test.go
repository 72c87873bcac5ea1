package db

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"ariga.io/atlas/sql/migrate"
)

func TestPendingMigrations(t *testing.T) {
	dir := &migrate.MemDir{}
	if err := dir.CopyFiles([]migrate.File{
		migrate.NewLocalFile("20260101000000_baseline.sql", []byte("CREATE TABLE a (id int);\n")),
		migrate.NewLocalFile("20260201000000_add_b.sql", []byte("CREATE TABLE b (id int);\n")),
		migrate.NewLocalFile("20260301000000_add_c.sql", []byte("CREATE TABLE c (id int);\n")),
	}); err != nil {
		t.Fatal(err)
	}
	ms, err := loadMigrations(dir)
	if err != nil {
		t.Fatal(err)
	}
	rev := func(m *migration) Revision {
		return Revision{Version: m.version, Description: m.description, Kind: KindApplied, Checksum: m.checksum}
	}
	for _, tc := range []struct {
		name    string
		revs    []Revision
		pending []string
		err     string // a part of the error, "" for none
	}{
		{name: "empty", pending: []string{"20260101000000", "20260201000000", "20260301000000"}},
		{name: "at the baseline", revs: []Revision{rev(ms[0])}, pending: []string{"20260201000000", "20260301000000"}},
		{name: "up to date", revs: []Revision{rev(ms[0]), rev(ms[1]), rev(ms[2])}},
		{name: "recorded baseline", revs: []Revision{{Version: ms[0].version, Kind: KindBaseline, Checksum: ms[0].checksum}}, pending: []string{"20260201000000", "20260301000000"}},
		{
			name: "newer",
			revs: []Revision{rev(ms[0]), rev(ms[1]), rev(ms[2]), {Version: "20260401000000", Checksum: "x"}},
			err:  "the database schema is at version 20260401000000, newer than this quire binary, whose latest migration is 20260301000000",
		},
		{
			name: "unknown older",
			revs: []Revision{rev(ms[0]), {Version: "20260115000000", Checksum: "x"}},
			err:  "the database has migration 20260115000000, which this quire binary does not have",
		},
		{
			name: "changed",
			revs: []Revision{rev(ms[0]), {Version: ms[1].version, Checksum: "0123"}},
			err:  "migration 20260201000000 was applied with checksum 0123, but this quire binary's file 20260201000000_add_b.sql has checksum " + ms[1].checksum,
		},
		{
			name: "left behind",
			revs: []Revision{rev(ms[0]), rev(ms[2])},
			err:  "migration 20260201000000_add_b.sql was never applied, but the database already has the later migration 20260301000000",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pending, err := pendingMigrations(ms, tc.revs)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error = %v, want one containing %q", err, tc.err)
				}
				var newer *NewerDatabaseError
				if errors.As(err, &newer) != (tc.name == "newer") {
					t.Errorf("error %v: NewerDatabaseError %v", err, newer)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range pending {
				got = append(got, m.version)
			}
			if !slices.Equal(got, tc.pending) {
				t.Errorf("pending = %v, want %v", got, tc.pending)
			}
		})
	}
}

// A directory whose files do not match atlas.sum is refused before
// anything runs.
func TestLoadMigrationsChecksSum(t *testing.T) {
	dir := &migrate.MemDir{}
	if err := dir.CopyFiles([]migrate.File{migrate.NewLocalFile("20260101000000_baseline.sql", []byte("CREATE TABLE a (id int);\n"))}); err != nil {
		t.Fatal(err)
	}
	if _, err := loadMigrations(dir); err != nil {
		t.Fatal(err)
	}
	if err := dir.WriteFile("20260101000000_baseline.sql", []byte("CREATE TABLE a (id bigint);\n")); err != nil {
		t.Fatal(err)
	}
	_, err := loadMigrations(dir)
	if err == nil || !strings.Contains(err.Error(), "do not match atlas.sum (file 20260101000000_baseline.sql edited)") {
		t.Errorf("error = %v, want the edited file named", err)
	}
}
