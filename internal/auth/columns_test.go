package auth

import (
	"slices"
	"testing"

	"quire/ent/member"
	"quire/ent/organization"
	"quire/ent/user"
)

// LookupCaller builds ent entities from a statement of its own: every column
// ent reads for them must be in it, or a field added to ent/schema would
// silently stay empty for the caller.
func TestLookupCallerReadsEveryColumn(t *testing.T) {
	for _, c := range []struct {
		table   string
		ent     []string
		read    []string
		derived []string // given by the joins
	}{
		{user.Table, user.Columns, callerUserColumns, nil},
		{member.Table, member.Columns, callerMemberColumns, []string{member.FieldUserID}},
		{organization.Table, organization.Columns, callerOrganizationColumns, []string{organization.FieldID}},
	} {
		for _, col := range c.ent {
			if !slices.Contains(c.read, col) && !slices.Contains(c.derived, col) {
				t.Errorf("LookupCaller does not read %s.%s: add it to its statement and to the entity it builds", c.table, col)
			}
		}
		for _, col := range c.read {
			if !slices.Contains(c.ent, col) {
				t.Errorf("LookupCaller reads %s.%s, which ent does not know", c.table, col)
			}
		}
	}
}
