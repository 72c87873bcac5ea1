package loaders

// Keep returns the request-scoped value stored under key, creating it with
// make the first time (concurrent first callers may each make one; all get
// the one kept). Engines that cannot be imported here (they import this
// package) keep their per-request loaders this way.
func Keep[T any](l *Loaders, key string, make func() T) T {
	return l.Remember("keep:"+key, func() any { return make() }).(T)
}

// ForgetMemos drops what Memo keeps for id after a write that changes it.
func (l *Loaders) ForgetMemos(id string) {
	l.Sites.warmed.mu.Lock()
	delete(l.Sites.warmed.m, id)
	l.Sites.warmed.mu.Unlock()
}
