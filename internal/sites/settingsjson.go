package sites

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"sort"
	"sync"

	"quire/ent"
	"quire/internal/customization"
	"quire/internal/loaders"
)

// The JSON a site or site space shows is a pure function of the documents
// stored for it: decoding a stored document (merging it over the defaults,
// checking it) and encoding the result cost far more than reading it. So
// the encoded JSON is kept by the digest of what it was built from. Being a
// function of stored bytes, the cache cannot make replicas disagree, and a
// write is seen at once: new bytes, new key.
var settingsCache = &jsonCache{max: 1024, m: map[[sha256.Size]byte][]byte{}}

type jsonCache struct {
	mu  sync.RWMutex
	max int
	m   map[[sha256.Size]byte][]byte
}

func (c *jsonCache) get(key [sha256.Size]byte, build func() ([]byte, error)) ([]byte, error) {
	c.mu.RLock()
	b, ok := c.m[key]
	c.mu.RUnlock()
	if ok {
		return b, nil
	}
	b, err := build()
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if len(c.m) >= c.max {
		clear(c.m) // rare: more distinct settings than max in one process
	}
	c.m[key] = b
	c.mu.Unlock()
	return b, nil
}

// settingsKey digests a site's stored settings and, for a site space, its
// stored override; the lengths keep the two apart.
func settingsKey(site, override *[]byte) [sha256.Size]byte {
	h := sha256.New()
	var buf [9]byte
	put := func(tag byte, p *[]byte) {
		n := int64(-1)
		if p != nil {
			n = int64(len(*p))
		}
		buf[0] = tag
		binary.LittleEndian.PutUint64(buf[1:], uint64(n))
		h.Write(buf[:])
		if p != nil {
			h.Write(*p)
		}
	}
	put('s', site)
	if override != nil {
		put('o', override)
	}
	var out [sha256.Size]byte
	h.Sum(out[:0])
	return out
}

func hasOverride(ss *ent.SiteSpace) bool {
	return ss.Customization != nil && len(*ss.Customization) > 0
}

// siteSettingsJSON is the JSON of a site's settings (what [Service.Customization]
// returns). The bytes are shared: callers must not change them.
func siteSettingsJSON(st *ent.Site) ([]byte, error) {
	return settingsCache.get(settingsKey(st.Customization, nil), func() ([]byte, error) {
		set, err := siteSettings(st)
		if err != nil {
			return nil, err
		}
		return customization.Marshal(set)
	})
}

// siteSpaceSettingsJSON is the JSON of the settings a site space shows; a
// site space without overrides shows the site's, byte for byte.
func siteSpaceSettingsJSON(st *ent.Site, ss *ent.SiteSpace) ([]byte, error) {
	if !hasOverride(ss) {
		return siteSettingsJSON(st)
	}
	return settingsCache.get(settingsKey(st.Customization, ss.Customization), func() ([]byte, error) {
		set, err := effective(st, ss)
		if err != nil {
			return nil, err
		}
		return customization.Marshal(set)
	})
}

// CustomizationJSON returns the JSON of a site's customization settings.
// The bytes are shared: callers must not change them.
// Errors: NotFound.
func (s *Service) CustomizationJSON(ctx context.Context, orgID, siteID string) ([]byte, error) {
	st, err := s.Site(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	return siteSettingsJSON(st)
}

// SiteSpaceCustomizationJSON returns the JSON of the settings a site space
// shows. The bytes are shared: callers must not change them.
// Errors: NotFound.
func (s *Service) SiteSpaceCustomizationJSON(ctx context.Context, orgID, siteID, id string) ([]byte, error) {
	st, err := s.Site(ctx, orgID, siteID)
	if err != nil {
		return nil, err
	}
	ss, err := s.SiteSpace(ctx, orgID, siteID, id)
	if err != nil {
		return nil, err
	}
	return siteSpaceSettingsJSON(st, ss)
}

// siteSpacesSettingsJSON builds the object that maps each site space id to
// the JSON of the settings it shows, as json.Marshal of a map would (keys
// sorted), without re-reading the members: they are compact already.
func siteSpacesSettingsJSON(ctx context.Context, st *ent.Site, sss []*ent.SiteSpace) ([]byte, error) {
	return loaders.Memo(ctx, st.ID, "settings.siteSpaces", func() ([]byte, error) {
		list := make([]*ent.SiteSpace, len(sss))
		copy(list, sss)
		sort.Slice(list, func(i, j int) bool { return list[i].ID < list[j].ID })
		parts := make([][]byte, len(list))
		size := 2
		for i, ss := range list {
			b, err := siteSpaceSettingsJSON(st, ss)
			if err != nil {
				return nil, err
			}
			parts[i] = b
			size += len(ss.ID) + len(b) + 4
		}
		out := make([]byte, 0, size)
		out = append(out, '{')
		for i, ss := range list {
			if i > 0 {
				out = append(out, ',')
			}
			k, err := json.Marshal(ss.ID)
			if err != nil {
				return nil, fmt.Errorf("encode site space id: %w", err)
			}
			out = append(out, k...)
			out = append(out, ':')
			out = append(out, parts[i]...)
		}
		return append(out, '}'), nil
	})
}
