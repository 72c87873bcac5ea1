package loaders

import (
	"context"
	"sync"

	"github.com/graph-gophers/dataloader/v7"
)

// Loader is a per-request dataloader of values by string key: the
// library's loader, with two ways of batching that wait for no timer.
//
//   - Fetch loads a known set of keys at once, from the calling goroutine,
//     for callers that know every key they need (a level of a site's
//     profile).
//   - In a sequential request (the REST door: one goroutine runs the whole
//     request), Load queues the key and the first wait for any queued key
//     loads them all: everything queued before waiting shares one batch,
//     as it would with the window, without waiting for it. GraphQL resolves
//     siblings concurrently and keeps the 1 ms window.
type Loader[V any] struct {
	*dataloader.Loader[string, V]
	batch      dataloader.BatchFunc[string, V]
	cache      *dataloader.InMemoryCache[string, V]
	sequential bool
	// coldLoad, when set (see WithColdLoadHook), is called with the
	// caller's context by each Load that waits for the batch window.
	coldLoad func(context.Context)

	mu      sync.Mutex
	pending []string
}

func newBatchLoader[V any](batch dataloader.BatchFunc[string, V], sequential bool) *Loader[V] {
	cache := dataloader.NewCache[string, V]()
	return &Loader[V]{
		Loader: dataloader.NewBatchedLoader(batch, dataloader.WithWait[string, V](Wait),
			dataloader.WithBatchCapacity[string, V](maxBatch), dataloader.WithCache[string, V](cache)),
		batch:      batch,
		cache:      cache,
		sequential: sequential,
	}
}

// Load returns a thunk for the value of key (see the type's comment).
func (l *Loader[V]) Load(ctx context.Context, key string) dataloader.Thunk[V] {
	// A key asked for before shares the first thunk (which waits for its
	// batch when that is still running), as the library would give it,
	// without the library's per-call allocations: nested reads ask for
	// the same site, sections and spaces many times a request.
	if th, ok := l.cache.Get(ctx, key); ok {
		return th
	}
	if !l.sequential {
		if l.coldLoad != nil {
			l.coldLoad(ctx)
		}
		return l.Loader.Load(ctx, key)
	}
	l.mu.Lock()
	l.pending = append(l.pending, key)
	l.mu.Unlock()
	return func() (V, error) {
		l.mu.Lock()
		keys := l.pending
		l.pending = nil
		l.mu.Unlock()
		l.fetch(ctx, keys)
		if th, ok := l.cache.Get(ctx, key); ok {
			return th()
		}
		// Cleared since it was loaded.
		return l.Loader.Load(ctx, key)()
	}
}

// Fetch loads every key not loaded yet in one batch (a batch per maxBatch
// keys) now, from this goroutine, and returns the values in key order;
// errs is nil when every key loaded.
func (l *Loader[V]) Fetch(ctx context.Context, keys []string) ([]V, []error) {
	l.fetch(ctx, keys)
	return LoadAll(ctx, l, keys)
}

// fetch runs the batch function for the keys that are not cached, and
// caches what it returns (errors included, as Load does).
func (l *Loader[V]) fetch(ctx context.Context, keys []string) {
	var missing []string
	seen := make(map[string]bool, len(keys))
	for _, k := range keys {
		if seen[k] {
			continue
		}
		seen[k] = true
		if _, ok := l.cache.Get(ctx, k); !ok {
			missing = append(missing, k)
		}
	}
	for len(missing) > 0 {
		chunk := missing[:min(len(missing), maxBatch)]
		missing = missing[len(chunk):]
		results := l.batch(ctx, chunk)
		for i, k := range chunk {
			r := results[i]
			l.cache.Set(ctx, k, func() (V, error) { return r.Data, r.Error })
		}
	}
}
