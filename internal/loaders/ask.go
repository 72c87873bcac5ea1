package loaders

import "context"

// Ask makes keys part of what the request reads of l, for an engine's read
// that knows what its caller will show: the callers' later loads of these
// keys then read the cache.
//
// How it reads them is the loaders' concern, not the engine's. A request
// whose resolvers run concurrently (GraphQL) queues the keys without
// waiting, so that they share a batch with the sibling objects of a list
// (the discussions of every change request of a page); one that runs
// sequentially (REST) reads them now, a batch per call, so that the kinds
// an engine asks for are read in the order it asks them (a later kind may
// then find its users primed by an earlier one).
func (l *Loader[V]) Ask(ctx context.Context, keys []string) {
	keys = uniq(keys)
	if len(keys) == 0 {
		return
	}
	if l.sequential {
		l.fetch(ctx, keys)
		return
	}
	for _, k := range keys {
		l.Load(ctx, k)
	}
}
