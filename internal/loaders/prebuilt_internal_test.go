package loaders

import (
	"strings"
	"testing"

	entsql "entgo.io/ent/dialect/sql"

	"quire/ent/space"
)

// Every kept statement is built once: its arguments are all the key.
func TestStatementsAreKeyed(t *testing.T) {
	for name, st := range map[string]*statement{
		"organizationByID": organizationByID, "userByID": userByID, "collectionByID": collectionByID,
		"spaceByID": spaceByID, "siteByID": siteByID,
	} {
		text, args := st.bind("K")
		if !st.keyed || len(args) == 0 {
			t.Errorf("%s: built on every use (%d arguments)", name, len(args))
		}
		for _, a := range args {
			if a != "K" {
				t.Errorf("%s: argument %v, want the key", name, a)
			}
		}
		if strings.Contains(text, marker) {
			t.Errorf("%s: the key is in the text: %q", name, text)
		}
		again, _ := st.bind("L")
		if again != text {
			t.Errorf("%s: the text changed with the key", name)
		}
	}
	// A statement whose build puts something other than the key in its
	// arguments is built on every use, with the key.
	odd := &statement{build: func(key string) *entsql.Selector {
		s := selectAll(space.Table, space.Columns)
		return s.Where(entsql.And(entsql.EQ(s.C(space.FieldID), key), entsql.EQ(s.C(space.FieldTitle), "other")))
	}}
	if _, args := odd.bind("K"); odd.keyed || len(args) != 2 || args[0] != "K" || args[1] != "other" {
		t.Errorf("a statement with another argument: keyed %v, arguments %v", odd.keyed, args)
	}
}
