package loaders

import (
	"context"
	"sync/atomic"
	"testing"
)

func TestColdLoadHookSeesOnlyLoadsThatWaitForTheWindow(t *testing.T) {
	f := &fakeBatch{}
	l := newBatchLoader(f.fn, false)
	var cold atomic.Int32
	l.setColdLoad(func(context.Context) { cold.Add(1) })
	ctx := context.Background()

	a := l.Load(ctx, "a") // waits for the window
	l.Load(ctx, "a")      // joins the load under way
	if v, _ := a(); v != "a!" {
		t.Fatalf("a = %q", v)
	}
	l.Load(ctx, "a")()          // cached
	l.Fetch(ctx, []string{"b"}) // loads now, no window
	l.Load(ctx, "b")()          // cached by Fetch
	if n := cold.Load(); n != 1 {
		t.Errorf("hook called %d times, want 1 (the first load of a)", n)
	}

	seq := newBatchLoader(f.fn, true)
	seq.setColdLoad(func(context.Context) { t.Error("a sequential loader waits for no window") })
	seq.Load(ctx, "c")()
}

func TestWithGivesTheHookToEveryLoader(t *testing.T) {
	var calls atomic.Int32
	ctx := WithColdLoadHook(context.Background(), func(context.Context) { calls.Add(1) })
	l := New(nil)
	With(ctx, l)
	for name, loader := range map[string]interface{ hooked() bool }{
		"OrganizationByID": l.OrganizationByID, "UserByID": l.UserByID, "CollectionByID": l.CollectionByID,
		"SpaceByID": l.SpaceByID, "MemberByOrgUser": l.MemberByOrgUser, "SpacesByParent": l.SpacesByParent,
		"CollectionsByParent": l.CollectionsByParent, "Sites.SiteByID": l.Sites.SiteByID,
		"Sites.SectionsBySite": l.Sites.SectionsBySite, "Sites.GroupsBySite": l.Sites.GroupsBySite,
		"Sites.SiteSpacesBySite": l.Sites.SiteSpacesBySite, "Sites.ShareLinksBySite": l.Sites.ShareLinksBySite,
	} {
		if !loader.hooked() {
			t.Errorf("%s has no hook", name)
		}
	}
	// Without the hook in the context, none is set.
	l = New(nil)
	With(context.Background(), l)
	if l.SpaceByID.hooked() {
		t.Error("a hook without WithColdLoadHook")
	}
}

func (l *Loader[V]) hooked() bool { return l.coldLoad != nil }
