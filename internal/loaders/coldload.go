package loaders

import (
	"context"
	"reflect"
)

type coldLoadKey struct{}

// WithColdLoadHook returns a context whose requests' loaders call hook, with
// the loading goroutine's context, each time a Load does not find its key
// loaded or under way and so waits for the batch window (GraphQL's 1 ms
// timer) before its value can come. Loads served from the cache, Fetch and
// the sequential (REST) loaders never call it. It lets tests find the
// fields that wait on a window in turn, where a load before them would
// have warmed the cache; the loaders of a request served under any other
// context check a nil func and nothing else.
func WithColdLoadHook(ctx context.Context, hook func(context.Context)) context.Context {
	return context.WithValue(ctx, coldLoadKey{}, hook)
}

// coldLoadSetter is implemented by every *Loader.
type coldLoadSetter interface{ setColdLoad(func(context.Context)) }

func (l *Loader[V]) setColdLoad(hook func(context.Context)) { l.coldLoad = hook }

// onColdLoad gives hook to every loader of l, nested ones (Sites) included,
// so that a loader added later is covered without being listed here.
func (l *Loaders) onColdLoad(hook func(context.Context)) {
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		for i := range v.NumField() {
			f := v.Field(i)
			if !v.Type().Field(i).IsExported() {
				continue
			}
			if s, ok := f.Interface().(coldLoadSetter); ok && !f.IsNil() {
				s.setColdLoad(hook)
			} else if f.Kind() == reflect.Struct {
				walk(f)
			}
		}
	}
	walk(reflect.ValueOf(l).Elem())
}
