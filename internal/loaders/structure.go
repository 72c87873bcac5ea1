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
	"quire/ent/sitesharelink"
	"quire/ent/sitespace"
)

// structureSlots are the columns of one row of structureQuery, by slot, for
// each of the tables (ent's generated column names; "" is NULL in that
// table's branch; a share link's name is in the title slot, its key in the
// path slot, its active flag in the hidden slot). A test checks that each table's slots hold every
// column ent reads for it, so that a field added to ent/schema fails it
// until it is read here too.
var structureSlots = struct{ siteSpace, section, group, shareLink [14]string }{
	siteSpace: [14]string{sitespace.FieldID, sitespace.FieldSiteID, sitespace.FieldSectionID, sitespace.FieldSpaceID, "", "",
		sitespace.FieldPath, sitespace.FieldCondition, "", "", sitespace.FieldHidden, sitespace.FieldPosition,
		sitespace.FieldCustomization, sitespace.FieldCreatedAt},
	section: [14]string{sitesection.FieldID, sitesection.FieldSiteID, sitesection.FieldGroupID, "", sitesection.FieldTitle,
		sitesection.FieldDescription, sitesection.FieldPath, sitesection.FieldCondition, sitesection.FieldIcon,
		sitesection.FieldDefaultSiteSpaceID, "", sitesection.FieldPosition, "", sitesection.FieldCreatedAt},
	group: [14]string{sitesectiongroup.FieldID, sitesectiongroup.FieldSiteID, sitesectiongroup.FieldParentID, "",
		sitesectiongroup.FieldTitle, "", "", "", sitesectiongroup.FieldIcon, "", "", sitesectiongroup.FieldPosition, "",
		sitesectiongroup.FieldCreatedAt},
	shareLink: [14]string{sitesharelink.FieldID, sitesharelink.FieldSiteID, "", "", sitesharelink.FieldName, "",
		sitesharelink.FieldKey, "", "", "", sitesharelink.FieldActive, "", "", sitesharelink.FieldCreatedAt},
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

// structureLinksQuery is structureQuery with the sites' share links, which
// checking a share key needs, as a fourth branch: a site read that wants
// both sends one statement for them.
var structureLinksQuery = structureQuery + "\nUNION ALL\n" +
	structureBranch("link", sitesharelink.Table, sitesharelink.FieldSiteID, structureSlots.shareLink)

func structureBranch(kind, table, siteColumn string, slots [14]string) string {
	cols := make([]string, len(slots))
	for i, c := range slots {
		cols[i] = `"` + c + `"`
		if c == "" {
			cols[i] = "NULL"
		}
	}
	return "SELECT '" + kind + "', " + strings.Join(cols, ", ") + ` FROM "` + table + `" WHERE "` + siteColumn + `" IN ({{in}})`
}

// FetchStructures loads the structure of sites (their sections, section
// groups and site spaces) in one statement per maxBatch sites, instead of a
// statement per table, and keeps each site's three lists in SectionsBySite,
// GroupsBySite and SiteSpacesBySite, empty lists included; with links, the
// same statement reads their share links into ShareLinksBySite. Sites whose
// lists are loaded already are skipped. On failure nothing more is kept
// and the error is returned.
func (l SiteLoaders) FetchStructures(ctx context.Context, siteIDs []string, links bool) error {
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
		d := true
		if links {
			_, d = l.ShareLinksBySite.cache.Get(ctx, id)
		}
		if !a || !b || !c || !d {
			missing = append(missing, id)
		}
	}
	query := structureQuery
	if links {
		query = structureLinksQuery
	}
	for len(missing) > 0 {
		chunk := missing[:min(len(missing), maxBatch)]
		missing = missing[len(chunk):]
		s, err := readStructures(ctx, l.client, query, chunk)
		if err != nil {
			return err
		}
		for _, id := range chunk {
			sections, groups, spaces, shared := s.sections[id], s.groups[id], s.siteSpaces[id], s.links[id]
			l.SectionsBySite.cache.Set(ctx, id, func() ([]*ent.SiteSection, error) { return sections, nil })
			l.GroupsBySite.cache.Set(ctx, id, func() ([]*ent.SiteSectionGroup, error) { return groups, nil })
			l.SiteSpacesBySite.cache.Set(ctx, id, func() ([]*ent.SiteSpace, error) { return spaces, nil })
			if links {
				l.ShareLinksBySite.cache.Set(ctx, id, func() ([]*ent.SiteShareLink, error) { return shared, nil })
			}
		}
	}
	return nil
}

type structures struct {
	sections   map[string][]*ent.SiteSection
	groups     map[string][]*ent.SiteSectionGroup
	siteSpaces map[string][]*ent.SiteSpace
	links      map[string][]*ent.SiteShareLink
}

func readStructures(ctx context.Context, client *ent.Client, query string, siteIDs []string) (*structures, error) {
	text, args := inList(query, siteIDs)
	rows, err := client.QueryContext(ctx, text, args...)
	if err != nil {
		return nil, fmt.Errorf("load site structures: %w", err)
	}
	defer rows.Close()
	out := &structures{
		sections:   map[string][]*ent.SiteSection{},
		groups:     map[string][]*ent.SiteSectionGroup{},
		siteSpaces: map[string][]*ent.SiteSpace{},
		links:      map[string][]*ent.SiteShareLink{},
	}
	for rows.Next() {
		var (
			kind, id, siteID                                           string
			parent, spaceID, title, description, path, condition, icon sql.NullString
			defaultSiteSpace, nullPosition                             sql.NullString
			hidden                                                     sql.NullBool
			customization                                              []byte
			createdAt                                                  time.Time
		)
		if err := rows.Scan(&kind, &id, &siteID, &parent, &spaceID, &title, &description, &path, &condition, &icon,
			&defaultSiteSpace, &hidden, &nullPosition, &customization, &createdAt); err != nil {
			return nil, fmt.Errorf("load site structures: %w", err)
		}
		position := nullPosition.String
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
		case "link":
			out.links[siteID] = append(out.links[siteID], &ent.SiteShareLink{ID: id, SiteID: siteID, Name: title.String,
				Key: path.String, Active: hidden.Bool, CreatedAt: createdAt})
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
