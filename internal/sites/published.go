package sites

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/graph-gophers/dataloader/v7"

	"quire/ent"
	"quire/ent/site"
	"quire/ent/sitespace"
	"quire/internal/loaders"
)

// Publication is what the published sites that serve a space make of it.
type Publication struct {
	// Published is the space's published URL: that of its site space in
	// the oldest published site that serves it to anyone (a share-link
	// site only with one of its keys), "" when none does.
	Published string
	// Public is its URL in the oldest published public site that serves
	// it, "" when none does.
	Public string
	// VisitorAuth: a published visitor-auth site serves the space.
	VisitorAuth bool
}

// publications keeps, per request, the published sites serving each space
// read, and the share key a caller named with a space.
type publications struct {
	bySpace *dataloader.Loader[string, []*ent.Site]
	mu      sync.Mutex
	keys    map[string]string // space id → share key
	// viewed are the sites whose spaces the request read with them
	// (View and ViewSites with Want.Spaces).
	viewed []string
}

func (s *Service) publications(ctx context.Context) *publications {
	return loaders.Keep(loaders.For(ctx), "sites.publications", func() *publications {
		return &publications{
			bySpace: dataloader.NewBatchedLoader(s.servingSites,
				dataloader.WithWait[string, []*ent.Site](loaders.Wait), dataloader.WithBatchCapacity[string, []*ent.Site](500)),
			keys: map[string]string{},
		}
	})
}

// UseShareKey makes the published URLs of a space presented in this
// request resolve through key, a key of a share link of a share-link site
// that serves it (GET /spaces/{id}?shareKey=). A key that matches no such
// link is left unused.
func (s *Service) UseShareKey(ctx context.Context, spaceID string, key *string) {
	if key == nil || strings.TrimSpace(*key) == "" || loaders.For(ctx) == nil {
		return
	}
	p := s.publications(ctx)
	p.mu.Lock()
	p.keys[spaceID] = *key
	p.mu.Unlock()
}

// ReadPublications reads which published sites serve the spaces, and
// their structures, for all of them at once (a page of a list, presented
// one space after the other): at most two statements whatever their
// number.
func (s *Service) ReadPublications(ctx context.Context, spaceIDs []string) error {
	if loaders.For(ctx) == nil || len(spaceIDs) == 0 {
		return nil
	}
	p := s.publications(ctx)
	res := s.servingSites(ctx, spaceIDs)
	for i, id := range spaceIDs {
		if res[i].Error != nil {
			return res[i].Error
		}
		p.bySpace.Prime(ctx, id, res[i].Data)
	}
	return nil
}

// servingSites is the batch function of publications: the published sites
// that serve each space, in one statement, and their structures in one
// more when there are any. Results in key order.
func (s *Service) servingSites(ctx context.Context, spaceIDs []string) []*dataloader.Result[[]*ent.Site] {
	out := make([]*dataloader.Result[[]*ent.Site], len(spaceIDs))
	fail := func(err error) []*dataloader.Result[[]*ent.Site] {
		for i := range out {
			out[i] = &dataloader.Result[[]*ent.Site]{Error: fmt.Errorf("load the sites publishing spaces: %w", err)}
		}
		return out
	}
	sts, err := s.Client.Site.Query().
		Where(site.Published(true), site.HasSiteSpacesWith(sitespace.SpaceIDIn(spaceIDs...))).
		Order(ent.Asc(site.FieldCreatedAt), ent.Asc(site.FieldID)).All(ctx)
	if err != nil {
		return fail(err)
	}
	l := loaders.For(ctx)
	ids := make([]string, len(sts))
	for i, st := range sts {
		ids[i] = st.ID
		l.Sites.SiteByID.Prime(ctx, st.ID, st)
	}
	if len(ids) > 0 {
		// Share links come with the structure: checking a share key
		// needs them, and they cost no statement of their own there.
		if err := l.Sites.FetchStructures(ctx, ids, true); err != nil {
			return fail(err)
		}
	}
	by := map[string][]*ent.Site{}
	for _, st := range sts {
		sss, err := l.Sites.SiteSpacesBySite.Load(ctx, st.ID)()
		if err != nil {
			return fail(err)
		}
		seen := map[string]bool{}
		for _, ss := range sss {
			if !seen[ss.SpaceID] {
				seen[ss.SpaceID] = true
				by[ss.SpaceID] = append(by[ss.SpaceID], st)
			}
		}
	}
	for i, id := range spaceIDs {
		out[i] = &dataloader.Result[[]*ent.Site]{Data: by[id]}
	}
	return out
}

// PublicationOf returns what the published sites serving a space make of
// it (see Publication). Sites are taken oldest first: the documented API
// does not say which of several sites is the space's, and the oldest is
// the one that served it first. A space shown in a site's read takes its
// URLs from that site (see inViewedSites). Outside a request (no loaders)
// nothing is read and the publication is empty.
func (s *Service) PublicationOf(ctx context.Context, sp *ent.Space) (*Publication, error) {
	out := &Publication{}
	if loaders.For(ctx) == nil {
		return out, nil
	}
	p := s.publications(ctx)
	sts, err := p.inViewedSites(ctx, sp.ID)
	if err != nil {
		return nil, err
	}
	if sts == nil {
		if sts, err = p.bySpace.Load(ctx, sp.ID)(); err != nil {
			return nil, err
		}
	}
	if len(sts) == 0 {
		return out, nil
	}
	p.mu.Lock()
	key, keyed := p.keys[sp.ID]
	p.mu.Unlock()
	sts = append([]*ent.Site(nil), sts...)
	sort.SliceStable(sts, func(i, j int) bool {
		if !sts[i].CreatedAt.Equal(sts[j].CreatedAt) {
			return sts[i].CreatedAt.Before(sts[j].CreatedAt)
		}
		return sts[i].ID < sts[j].ID
	})
	// A share key the caller named picks its site over the others.
	var keyedURL string
	for _, st := range sts {
		if !st.Published {
			continue
		}
		if st.Visibility == "visitor-auth" {
			out.VisitorAuth = true
		}
		if st.Visibility == "share-link" {
			if keyed && keyedURL == "" && s.keyMatches(ctx, st, key) {
				if keyedURL, err = s.spaceURL(ctx, st, sp.ID, &key); err != nil {
					return nil, err
				}
			}
			continue
		}
		u, err := s.spaceURL(ctx, st, sp.ID, nil)
		if err != nil {
			return nil, err
		}
		if u == "" {
			continue
		}
		if out.Published == "" {
			out.Published = u
		}
		if st.Visibility == "public" && out.Public == "" {
			out.Public = u
		}
	}
	if keyedURL != "" {
		out.Published = keyedURL
	}
	return out, nil
}

// viewSites notes that the request reads these sites with their spaces:
// the spaces presented in them then take their URLs from them.
func (s *Service) viewSites(ctx context.Context, ids []string) {
	if loaders.For(ctx) == nil {
		return
	}
	p := s.publications(ctx)
	p.mu.Lock()
	p.viewed = append(p.viewed, ids...)
	p.mu.Unlock()
}

// inViewedSites returns the sites, among those the request reads with
// their spaces, that show the space; nil when none does. A space shown in
// a site's read (a site space's space) has the URLs that this site gives
// it: the read costs no statement more than the site's own, whatever the
// other sites that serve its spaces. Their structures are in the
// request's loaders already.
func (p *publications) inViewedSites(ctx context.Context, spaceID string) ([]*ent.Site, error) {
	p.mu.Lock()
	viewed := append([]string(nil), p.viewed...)
	p.mu.Unlock()
	var out []*ent.Site
	l := loaders.For(ctx).Sites
	seen := map[string]bool{}
	for _, id := range viewed {
		if seen[id] || !l.Done(id, partStructure) {
			continue
		}
		seen[id] = true
		sss, err := l.SiteSpacesBySite.Load(ctx, id)()
		if err != nil {
			return nil, err
		}
		for _, ss := range sss {
			if ss.SpaceID != spaceID {
				continue
			}
			st, err := l.SiteByID.Load(ctx, id)()
			if err != nil {
				return nil, err
			}
			out = append(out, st)
			break
		}
	}
	return out, nil
}

// keyMatches reports whether key is that of an active share link of the
// site (read with its structure).
func (s *Service) keyMatches(ctx context.Context, st *ent.Site, key string) bool {
	k, err := s.ResolveShareKey(ctx, st, &key)
	return err == nil && k != nil
}

// spaceURL is the published URL of the first of the site's site spaces
// that shows the space, built as every other published URL is (see
// PublishedURLs).
func (s *Service) spaceURL(ctx context.Context, st *ent.Site, spaceID string, key *string) (string, error) {
	t, err := LoadTree(ctx, st)
	if err != nil {
		return "", err
	}
	urls := s.URLs(ctx, t, key)
	var first *ent.SiteSpace
	for _, ss := range t.SiteSpaces {
		if ss.SpaceID != spaceID || urls[ss.ID] == "" {
			continue
		}
		if first == nil || less(ss.Position, ss.ID, first.Position, first.ID) {
			first = ss
		}
	}
	if first == nil {
		return "", nil
	}
	return urls[first.ID], nil
}
