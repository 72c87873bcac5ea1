package loaders

import "sync"

type memo struct {
	mu     sync.Mutex
	values map[string]any
}

// Memo returns the request-scoped value stored under key, creating it with
// make the first time. Engines that cannot be imported here (they import
// this package) keep their per-request loaders this way.
func Memo[T any](l *Loaders, key string, make func() T) T {
	l.memo.mu.Lock()
	defer l.memo.mu.Unlock()
	if v, ok := l.memo.values[key]; ok {
		return v.(T)
	}
	if l.memo.values == nil {
		l.memo.values = map[string]any{}
	}
	v := make()
	l.memo.values[key] = v
	return v
}
