package auth

import (
	"regexp"
	"slices"
	"testing"

	"entgo.io/ent/dialect/sql/schema"

	"quire/ent/migrate"
	"quire/internal/db"
)

// The database handle announces the changes of what LookupCaller reads:
// every table its statement reads, and every table whose deletion
// deletes rows of those (ON DELETE CASCADE) or changes them (SET NULL).
// A table added to the lookup, or a new cascade into its tables, fails
// this until the database handle announces it (internal/db/access.go).
func TestAccessChangesCoverTheCallerLookup(t *testing.T) {
	read := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?:FROM|JOIN) (\w+)`).FindAllStringSubmatch(callerQuery, -1) {
		read[m[1]] = true
	}
	announced, cascading := db.AccessTables()
	every := map[string]bool{}
	for _, t := range announced {
		every[t] = true
	}
	var missing []string
	for t := range read {
		if !every[t] {
			missing = append(missing, t)
		}
	}
	slices.Sort(missing)
	if len(missing) > 0 {
		t.Errorf("the caller lookup reads %v, whose changes are not announced", missing)
	}
	// The tables whose deletion cascades into the tables read.
	into := map[string]bool{}
	for _, tb := range migrate.Tables {
		if !read[tb.Name] {
			continue
		}
		for _, fk := range tb.ForeignKeys {
			if fk.OnDelete == schema.Cascade || fk.OnDelete == schema.SetNull {
				into[fk.RefTable.Name] = true
			}
		}
	}
	for _, c := range cascading {
		every[c] = true
	}
	missing = nil
	for tb := range into {
		if !every[tb] && !read[tb] {
			missing = append(missing, tb)
		}
	}
	slices.Sort(missing)
	if len(missing) > 0 {
		t.Errorf("deletions of %v cascade into what the caller lookup reads, and are not announced", missing)
	}
	// Nothing else is announced: every write to another table would
	// forget every caller for nothing.
	var extra []string
	for tb := range every {
		if !read[tb] && !into[tb] {
			extra = append(extra, tb)
		}
	}
	slices.Sort(extra)
	if len(extra) > 0 {
		t.Errorf("changes of %v are announced, which the caller lookup neither reads nor is cascaded into", extra)
	}
}
