package loaders

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"quire/ent"
)

// structureQuery reads the sections, section groups and site spaces of the
// sites named by its parameters (written {{in}}) in one statement: a UNION
// ALL of the three tables over one row shape, the first column telling the
// table. Both databases take the $n placeholders (SQLite as named
// parameters, bound by position) and resolve the NULL columns to the other
// branches' types.
const structureQuery = `SELECT 'space', id, site_id, section_id, space_id, NULL, NULL, path, condition, NULL, NULL, hidden, position, customization, created_at FROM site_spaces WHERE site_id IN ({{in}})
UNION ALL
SELECT 'section', id, site_id, group_id, NULL, title, description, path, condition, icon, default_site_space_id, NULL, position, NULL, created_at FROM site_sections WHERE site_id IN ({{in}})
UNION ALL
SELECT 'group', id, site_id, parent_id, NULL, title, NULL, NULL, NULL, icon, NULL, NULL, position, NULL, created_at FROM site_section_groups WHERE site_id IN ({{in}})`

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
