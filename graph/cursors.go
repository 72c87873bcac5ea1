package graph

import (
	"fmt"

	"quire/ent"
	"quire/internal/pagination"
)

func siteCursor(s *ent.Site) pagination.Cursor {
	return pagination.Cursor{Key: s.CreatedAt.UTC().Format("2006-01-02T15:04:05.000000000Z"), ID: s.ID}
}

// indexCursor orders items by their place in an already ordered list.
func indexCursor[T any](items []T) func(T) pagination.Cursor {
	idx := make(map[any]int, len(items))
	for i, it := range items {
		idx[any(it)] = i
	}
	return func(t T) pagination.Cursor {
		return pagination.Cursor{Key: fmt.Sprintf("%08d", idx[any(t)])}
	}
}
