package graph

import (
	"quire/ent"
	"quire/internal/pagination"
)

func siteCursor(s *ent.Site) pagination.Cursor {
	return pagination.Cursor{Key: s.CreatedAt.UTC().Format("2006-01-02T15:04:05.000000000Z"), ID: s.ID}
}
