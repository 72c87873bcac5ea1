package loaders

import (
	"slices"
	"strings"
	"testing"

	"quire/ent/sitesection"
	"quire/ent/sitesectiongroup"
	"quire/ent/sitesharelink"
	"quire/ent/sitespace"
)

// FetchStructures builds ent entities from a statement of its own: every
// column ent reads for them must be in it, or a field added to ent/schema
// would silently stay empty in every site read.
func TestStructureQueryReadsEveryColumn(t *testing.T) {
	for _, c := range []struct {
		table string
		ent   []string
		slots [14]string
	}{
		{sitespace.Table, sitespace.Columns, structureSlots.siteSpace},
		{sitesection.Table, sitesection.Columns, structureSlots.section},
		{sitesectiongroup.Table, sitesectiongroup.Columns, structureSlots.group},
		{sitesharelink.Table, sitesharelink.Columns, structureSlots.shareLink},
	} {
		for _, col := range c.ent {
			if !slices.Contains(c.slots[:], col) {
				t.Errorf("FetchStructures does not read %s.%s: add it to structureSlots and to the entity readStructures builds", c.table, col)
			}
		}
		for _, col := range c.slots {
			if col != "" && !slices.Contains(c.ent, col) {
				t.Errorf("FetchStructures reads %s.%s, which ent does not know", c.table, col)
			}
		}
	}
	if n := strings.Count(structureQuery, "UNION ALL"); n != 2 {
		t.Errorf("structure statement has %d UNION ALL, want 2:\n%s", n, structureQuery)
	}
	if n := strings.Count(structureLinksQuery, "UNION ALL"); n != 3 {
		t.Errorf("structure statement with links has %d UNION ALL, want 3:\n%s", n, structureLinksQuery)
	}
}
