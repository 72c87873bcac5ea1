package lists

import (
	"bytes"
	"context"
	"strconv"
	"sync"
	"testing"

	"github.com/99designs/gqlgen/graphql"
)

func opCtx() context.Context {
	ctx := graphql.WithOperationContext(context.Background(), &graphql.OperationContext{})
	return graphql.WithResponseContext(ctx, graphql.DefaultErrorPresenter, graphql.DefaultRecover)
}

// Every item is marshaled once, at its index, with its index in its field
// context, and the items run at the same time (each waits for all others
// to have started, which would never end if they ran one after another).
func TestItemsRunConcurrently(t *testing.T) {
	for _, n := range []int{0, 1, 2, 7, 300} {
		var started sync.WaitGroup
		started.Add(n)
		ret := MarshalSliceConcurrently(opCtx(), n, 0, false, func(ctx context.Context, i int) graphql.Marshaler {
			if got := *graphql.GetFieldContext(ctx).Index; got != i {
				t.Errorf("item %d has index %d in its field context", i, got)
			}
			started.Done()
			started.Wait()
			return graphql.MarshalInt(i)
		})
		if len(ret) != n {
			t.Fatalf("%d items: %d marshaled", n, len(ret))
		}
		for i, m := range ret {
			if got := text(m); got != strconv.Itoa(i) {
				t.Fatalf("%d items: item %d is %s", n, i, got)
			}
		}
	}
}

// Lists nested in items, more than there are kept workers, complete.
func TestNestedListsComplete(t *testing.T) {
	ctx := opCtx()
	ret := MarshalSliceConcurrently(ctx, 20, 0, false, func(ctx context.Context, i int) graphql.Marshaler {
		inner := MarshalSliceConcurrently(ctx, 50, 0, false, func(ctx context.Context, j int) graphql.Marshaler {
			return graphql.MarshalInt(i*100 + j)
		})
		return inner
	})
	if len(ret) != 20 || len(ret[19].(graphql.Array)) != 50 || text(ret[19].(graphql.Array)[49]) != "1949" {
		t.Fatalf("nested lists: %s", text(ret))
	}
}

// A panicking item is reported as an error of the operation and makes the
// list null, as gqlgen's own does.
func TestPanicNullsTheList(t *testing.T) {
	ctx := opCtx()
	ret := MarshalSliceConcurrently(ctx, 5, 0, false, func(ctx context.Context, i int) graphql.Marshaler {
		if i == 3 {
			panic("boom")
		}
		return graphql.MarshalInt(i)
	})
	if ret != nil {
		t.Fatalf("a list with a panicking item = %v, want nil", ret)
	}
	if errs := graphql.GetErrors(ctx); len(errs) != 1 {
		t.Fatalf("errors: %v", errs)
	}
}

func text(m graphql.Marshaler) string {
	var b bytes.Buffer
	m.MarshalGQL(&b)
	return b.String()
}

// The goroutines that marshaled a list stay as workers, and Workers counts
// them.
func TestWorkersAreCounted(t *testing.T) {
	MarshalSliceConcurrently(opCtx(), 8, 0, false, func(ctx context.Context, i int) graphql.Marshaler {
		return graphql.MarshalInt(i)
	})
	if n := Workers(); n < 1 {
		t.Fatalf("after a list of 8 items, Workers() = %d, want the kept workers", n)
	}
}
