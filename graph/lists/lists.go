// Package lists marshals the items of a GraphQL list concurrently, as
// gqlgen does, on goroutines that are kept for the next list.
//
// gqlgen resolves each item of a list of objects on a goroutine of its own
// (graphql.MarshalSliceConcurrently), so that sibling items share the
// dataloaders' batches. A new goroutine starts with a small stack, and
// resolving a nested object grows it a few times, copying it each time:
// on a nested read such as a site's sections and their site spaces that
// copying was a sixth of the server's CPU. Here an item is handed to an
// idle worker goroutine, whose stack has already grown, when one is
// waiting, and to a new goroutine otherwise (so that an item never waits
// for a worker: nested lists cannot deadlock); a new goroutine joins the
// workers afterwards while there are fewer than MaxIdle idle ones.
//
// The generated code calls MarshalSliceConcurrently instead of gqlgen's
// (cmd/gqlgen rewrites the call when it generates graph/generated); the
// semantics are gqlgen's: every item is marshaled in its own field context,
// a panic in one is reported as its field's error and makes the list null.
package lists

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/99designs/gqlgen/graphql"
)

// MaxIdle bounds the idle worker goroutines kept.
const MaxIdle = 256

// work hands an item to an idle worker; unbuffered, a send succeeds only
// when one is waiting.
var work = make(chan func())

// idle counts the workers waiting on work; workers counts the goroutines
// started by run, idle or running an item.
var idle, workers atomic.Int32

// Workers is the number of goroutines of the pool: the kept workers, idle
// or running an item, and those started for an item that are yet to end.
// Up to MaxIdle of them stay when no list is being marshaled.
func Workers() int { return int(workers.Load()) }

// run runs f on an idle worker, or on a new goroutine that then stays as a
// worker while fewer than MaxIdle are idle.
func run(f func()) {
	select {
	case work <- f:
	default:
		workers.Add(1)
		go worker(f)
	}
}

func worker(f func()) {
	defer workers.Add(-1)
	f()
	for idle.Add(1) <= MaxIdle {
		f = <-work
		idle.Add(-1)
		f()
	}
	idle.Add(-1)
}

// MarshalSliceConcurrently is graphql.MarshalSliceConcurrently on kept
// goroutines: it marshals length items, the first on the caller's
// goroutine and each other on one of its own, and returns nil when one of
// them panicked. A positive workerLimit (gqlgen's exec.worker_limit) is
// left to gqlgen's own.
func MarshalSliceConcurrently(ctx context.Context, length int, workerLimit int64, omitPanicHandler bool,
	marshalElement func(ctx context.Context, i int) graphql.Marshaler) graphql.Array {
	if workerLimit > 0 {
		return graphql.MarshalSliceConcurrently(ctx, length, workerLimit, omitPanicHandler, marshalElement)
	}
	ret := make(graphql.Array, length)
	var failed atomic.Bool
	one := func(i int) {
		fc := &graphql.FieldContext{Index: &i}
		childCtx := graphql.WithFieldContext(ctx, fc)
		if !omitPanicHandler {
			defer func() {
				if r := recover(); r != nil {
					graphql.AddError(childCtx, graphql.Recover(childCtx, r))
					failed.Store(true)
				}
			}()
		}
		ret[i] = marshalElement(childCtx, i)
	}
	var wg sync.WaitGroup
	for i := 1; i < length; i++ {
		wg.Add(1)
		run(func() {
			defer wg.Done()
			one(i)
		})
	}
	if length > 0 {
		// The siblings are under way: their loads join this one's batch.
		one(0)
	}
	wg.Wait()
	if failed.Load() {
		return nil
	}
	return ret
}
