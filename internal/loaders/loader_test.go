package loaders

import (
	"context"
	"errors"
	"reflect"
	"sync"
	"testing"

	"github.com/graph-gophers/dataloader/v7"
)

// fakeBatch records the keys of each batch and answers key+"!", or an
// error for "bad".
type fakeBatch struct {
	mu      sync.Mutex
	batches [][]string
}

func (f *fakeBatch) fn(_ context.Context, keys []string) []*dataloader.Result[string] {
	f.mu.Lock()
	f.batches = append(f.batches, append([]string(nil), keys...))
	f.mu.Unlock()
	out := make([]*dataloader.Result[string], len(keys))
	for i, k := range keys {
		if k == "bad" {
			out[i] = &dataloader.Result[string]{Error: errors.New("bad key")}
		} else {
			out[i] = &dataloader.Result[string]{Data: k + "!"}
		}
	}
	return out
}

func TestSequentialLoadBatchesWhatWasQueuedBeforeWaiting(t *testing.T) {
	ctx := context.Background()
	f := &fakeBatch{}
	l := newBatchLoader(f.fn, true)
	a, b, bad := l.Load(ctx, "a"), l.Load(ctx, "b"), l.Load(ctx, "bad")
	if v, err := a(); v != "a!" || err != nil {
		t.Fatalf("a = %q, %v", v, err)
	}
	if v, err := b(); v != "b!" || err != nil {
		t.Fatalf("b = %q, %v", v, err)
	}
	if _, err := bad(); err == nil {
		t.Fatal("bad: no error")
	}
	if v, _ := l.Load(ctx, "a")(); v != "a!" {
		t.Fatalf("a again = %q", v)
	}
	c := l.Load(ctx, "c")
	if v, _ := c(); v != "c!" {
		t.Fatalf("c = %q", v)
	}
	want := [][]string{{"a", "b", "bad"}, {"c"}}
	if !reflect.DeepEqual(f.batches, want) {
		t.Fatalf("batches %v, want %v", f.batches, want)
	}
	// Prime and Clear act on the same cache.
	l.Clear(ctx, "a").Prime(ctx, "a", "primed")
	if v, _ := l.Load(ctx, "a")(); v != "primed" {
		t.Fatalf("primed a = %q", v)
	}
}

func TestFetchLoadsOnlyMissingKeysAtOnce(t *testing.T) {
	ctx := context.Background()
	for _, seq := range []bool{false, true} {
		f := &fakeBatch{}
		l := newBatchLoader(f.fn, seq)
		vals, errs := l.Fetch(ctx, []string{"a", "b", "a"})
		if !reflect.DeepEqual(vals, []string{"a!", "b!", "a!"}) || errs != nil {
			t.Fatalf("seq %v: Fetch = %v, %v", seq, vals, errs)
		}
		vals, errs = l.Fetch(ctx, []string{"b", "bad", "c"})
		if vals[0] != "b!" || vals[2] != "c!" || errs == nil || errs[1] == nil || errs[0] != nil {
			t.Fatalf("seq %v: second Fetch = %v, %v", seq, vals, errs)
		}
		if v, _ := l.Load(ctx, "c")(); v != "c!" {
			t.Fatalf("seq %v: Load after Fetch = %q", seq, v)
		}
		want := [][]string{{"a", "b"}, {"bad", "c"}}
		if !reflect.DeepEqual(f.batches, want) {
			t.Fatalf("seq %v: batches %v, want %v", seq, f.batches, want)
		}
	}
}

func TestMemoComputesOncePerSiteAndKey(t *testing.T) {
	ctx := With(context.Background(), &Loaders{Sites: newSiteLoaders(nil, false)})
	n := 0
	get := func(site, key string) int {
		v, _ := Memo(ctx, site, key, func() (int, error) { n++; return n, nil })
		return v
	}
	if a, b := get("s1", "k"), get("s1", "k"); a != 1 || b != 1 {
		t.Fatalf("same site and key: %d, %d", a, b)
	}
	if c := get("s1", "other"); c != 2 {
		t.Fatalf("other key: %d", c)
	}
	For(ctx).ForgetSite(ctx, "s1")
	if d := get("s1", "k"); d != 3 {
		t.Fatalf("after ForgetSite: %d", d)
	}
}
