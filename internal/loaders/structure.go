package loaders

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"quire/ent"
	"quire/ent/sitesection"
	"quire/ent/sitesectiongroup"
	"quire/ent/sitespace"
)

// structureSlots are the columns of one row of structureQuery, by slot, for
// each of the three tables (ent's generated column names; "" is NULL in
// that table's branch). A test checks that each table's slots hold every
// column ent reads for it, so that a field added to ent/schema fails it
// until it is read here too.
var structureSlots = struct{ siteSpace, section, group [14]string }{
	siteSpace: [14]string{sitespace.FieldID, sitespace.FieldSiteID, sitespace.FieldSectionID, sitespace.FieldSpaceID, "", "",
		sitespace.FieldPath, sitespace.FieldCondition, "", "", sitespace.FieldHidden, sitespace.FieldPosition,
		sitespace.FieldCustomization, sitespace.FieldCreatedAt},
	section: [14]string{sitesection.FieldID, sitesection.FieldSiteID, sitesection.FieldGroupID, "", sitesection.FieldTitle,
		sitesection.FieldDescription, sitesection.FieldPath, sitesection.FieldCondition, sitesection.FieldIcon,
		sitesection.FieldDefaultSiteSpaceID, "", sitesection.FieldPosition, "", sitesection.FieldCreatedAt},
	group: [14]string{sitesectiongroup.FieldID, sitesectiongroup.FieldSiteID, sitesectiongroup.FieldParentID, "",
		sitesectiongroup.FieldTitle, "", "", "", sitesectiongroup.FieldIcon, "", "", sitesectiongroup.FieldPosition, "",
		sitesectiongroup.FieldCreatedAt},
}

// structureQuery reads the sections, section groups and site spaces of the
// sites named by its parameters (written {{in}}) in one statement: a UNION
// ALL of the three tables over one row shape, the first column telling the
// table. Both databases take the $n placeholders (SQLite as named
// parameters, bound by position) and resolve the NULL columns to the other
// branches' types.
var structureQuery = structureBranch("space", sitespace.Table, sitespace.FieldSiteID, structureSlots.siteSpace) +
	"\nUNION ALL\n" + structureBranch("section", sitesection.Table, sitesection.FieldSiteID, structureSlots.section) +
	"\nUNION ALL\n" + structureBranch("group", sitesectiongroup.Table, sitesectiongroup.FieldSiteID, structureSlots.group)

func structureBranch(kind, table, siteColumn string, slots [14]string) string {
	cols := make([]string, len(slots))
	for i, c := range slots {
		cols[i] = c
		if c == "" {
			cols[i] = "NULL"
		}
	}
	return "SELECT '" + kind + "', " + strings.Join(cols, ", ") + " FROM " + table + " WHERE " + siteColumn + " IN ({{in}})"
}

// FetchStructures loads the structure of sites (their sections, section
// groups and site spaces) in one statement per maxBatch sites, instead of a
// statement per table, and keeps each site's three lists in SectionsBySite,
// GroupsBySite and SiteSpacesBySite, empty lists included. Sites whose
// three lists are loaded already are skipped. On failure nothing is kept:
// the loaders then read the tables one by one and report the error.
func (l SiteLoaders) FetchStructures(ctx context.Context, siteIDs []string) {
	var missing []string
	seen := make(map[string]bool, len(siteIDs))
	for _, id := range siteIDs {
		if seen[id] {
			continue
		}
		seen[id] = true
		_, a := l.SectionsBySite.cache.Get(ctx, id)
		_, b := l.GroupsBySite.cache.Get(ctx, id)
		_, c := l.SiteSpacesBySite.cache.Get(ctx, id)
		if !a || !b || !c {
			missing = append(missing, id)
		}
	}
	for len(missing) > 0 {
		chunk := missing[:min(len(missing), maxBatch)]
		missing = missing[len(chunk):]
		s, err := readStructures(ctx, l.client, chunk)
		if err != nil {
			continue
		}
		for _, id := range chunk {
			sections, groups, spaces := s.sections[id], s.groups[id], s.siteSpaces[id]
			l.SectionsBySite.cache.Set(ctx, id, func() ([]*ent.SiteSection, error) { return sections, nil })
			l.GroupsBySite.cache.Set(ctx, id, func() ([]*ent.SiteSectionGroup, error) { return groups, nil })
			l.SiteSpacesBySite.cache.Set(ctx, id, func() ([]*ent.SiteSpace, error) { return spaces, nil })
		}
	}
}

type structures struct {
	sections   map[string][]*ent.SiteSection
	groups     map[string][]*ent.SiteSectionGroup
	siteSpaces map[string][]*ent.SiteSpace
}

func readStructures(ctx context.Context, client *ent.Client, siteIDs []string) (*structures, error) {
	marks := make([]string, len(siteIDs))
	args := make([]any, len(siteIDs))
	for i, id := range siteIDs {
		marks[i] = fmt.Sprintf("$%d", i+1)
		args[i] = id
	}
	rows, err := client.QueryContext(ctx, strings.ReplaceAll(structureQuery, "{{in}}", strings.Join(marks, ", ")), args...)
	if err != nil {
		return nil, fmt.Errorf("load site structures: %w", err)
	}
	defer rows.Close()
	out := &structures{
		sections:   map[string][]*ent.SiteSection{},
		groups:     map[string][]*ent.SiteSectionGroup{},
		siteSpaces: map[string][]*ent.SiteSpace{},
	}
	for rows.Next() {
		var (
			kind, id, siteID, position                                 string
			parent, spaceID, title, description, path, condition, icon sql.NullString
			defaultSiteSpace                                           sql.NullString
			hidden                                                     sql.NullBool
			customization                                              []byte
			createdAt                                                  time.Time
		)
		if err := rows.Scan(&kind, &id, &siteID, &parent, &spaceID, &title, &description, &path, &condition, &icon,
			&defaultSiteSpace, &hidden, &position, &customization, &createdAt); err != nil {
			return nil, fmt.Errorf("load site structures: %w", err)
		}
		switch kind {
		case "space":
			// As ent reads it: a pointer, to nil when the column is NULL.
			out.siteSpaces[siteID] = append(out.siteSpaces[siteID], &ent.SiteSpace{ID: id, SiteID: siteID,
				SectionID: optional(parent), SpaceID: spaceID.String, Path: path.String, Condition: optional(condition),
				Hidden: hidden.Bool, Position: position, Customization: &customization, CreatedAt: createdAt})
		case "section":
			out.sections[siteID] = append(out.sections[siteID], &ent.SiteSection{ID: id, SiteID: siteID, GroupID: optional(parent),
				Title: title.String, Description: optional(description), Path: path.String, Condition: optional(condition),
				Icon: optional(icon), DefaultSiteSpaceID: optional(defaultSiteSpace), Position: position, CreatedAt: createdAt})
		case "group":
			out.groups[siteID] = append(out.groups[siteID], &ent.SiteSectionGroup{ID: id, SiteID: siteID, ParentID: optional(parent),
				Title: title.String, Icon: optional(icon), Position: position, CreatedAt: createdAt})
		default:
			return nil, fmt.Errorf("load site structures: unexpected row kind %q", kind)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("load site structures: %w", err)
	}
	return out, nil
}

func optional(s sql.NullString) *string {
	if !s.Valid {
		return nil
	}
	return &s.String
}
