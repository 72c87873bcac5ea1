package server

import (
	"context"
	"net/http"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"quire/internal/apierr"
	"quire/internal/auth"
	"quire/internal/ratelimit"
	"quire/rest"
)

// contentMutations are the Mutation fields that create content: each in an
// operation spends one unit of the content rate limit. The REST routes that
// create content are marked in their route table (rest.Route.Creating).
var contentMutations = map[string]bool{
	"createChangeRequest": true,
	"createPage":          true,
	// Discussions: posting a comment or a reply, and a review (which may
	// post a comment).
	"postComment":               true,
	"postCommentReply":          true,
	"submitChangeRequestReview": true,
}

// limitREST charges a /v1 request before it is served: 1 point, and 1
// content unit on a route that creates content. The answer carries the
// rate-limit headers; over a limit it is a 429 and the route does not run.
func (s *Server) limitREST(next http.Handler) http.Handler {
	if s.limiter == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cost := ratelimit.Cost{Points: 1}
		if rt := s.api.RouteOf(r); rt != nil && rt.CreatesContent {
			cost.Content = 1
		}
		d, err := s.limiter.Take(r.Context(), auth.Viewer(r.Context()).ID, cost)
		if err != nil {
			rest.WriteError(w, r, s.cfg.Log, err)
			return
		}
		d.Headers(w.Header(), s.limiter.Now())
		if !d.Allowed {
			rest.WriteError(w, r, s.cfg.Log, apierr.New(apierr.RateLimited, "%s", s.limiter.Message(d)))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// chargeAnonymous charges a request without a valid token to its client
// address (the connection's: no proxy header is trusted) and sets the
// rate-limit headers. It reports whether the request may go on; when not,
// it has answered, in the door's shape: 429 over the budget, or the error.
func (s *Server) chargeAnonymous(w http.ResponseWriter, r *http.Request) bool {
	if s.limiter == nil {
		return true
	}
	d, err := s.limiter.TakeAnonymous(r.Context(), ratelimit.Address(r.RemoteAddr))
	if err != nil {
		s.fail(w, r, err)
		return false
	}
	d.Headers(w.Header(), s.limiter.Now())
	if !d.Allowed {
		s.fail(w, r, apierr.New(apierr.RateLimited, "%s", s.limiter.Message(d)))
		return false
	}
	return true
}

// limitAnonymous charges every request of a route that needs no token
// (single sign-on, login options, published keys, public specifications)
// to its client address, whatever its Authorization says: those routes
// read no token, and looking one up would cost what the budget spares.
func (s *Server) limitAnonymous(next http.Handler) http.Handler {
	if s.limiter == nil || s.limiter.Config().AnonymousLimit == 0 {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.chargeAnonymous(w, r) {
			next.ServeHTTP(w, r)
		}
	})
}

// rateKey carries a GraphQL request's rateVerdict.
type rateKey struct{}

// rateVerdict is what the limiter decided for a GraphQL operation, for the
// response to present.
type rateVerdict struct {
	decided bool
	d       ratelimit.Decision
}

// limitGraphQL gives a GraphQL request a place for the limiter's verdict
// (rateLimitExtension charges the operation once it is parsed) and presents
// the verdict with the response: the rate-limit headers, and status 429
// when the operation was refused.
func (s *Server) limitGraphQL(next http.Handler) http.Handler {
	if s.limiter == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		v := &rateVerdict{}
		rw := &rateWriter{ResponseWriter: w, v: v, limiter: s.limiter}
		next.ServeHTTP(rw, r.WithContext(context.WithValue(r.Context(), rateKey{}, v)))
	})
}

// rateWriter adds the verdict to the response when gqlgen's transport
// writes its status, which it does after the operation was charged.
type rateWriter struct {
	http.ResponseWriter
	v       *rateVerdict
	limiter *ratelimit.Limiter
	wrote   bool
}

func (w *rateWriter) WriteHeader(code int) {
	if !w.wrote {
		w.wrote = true
		if w.v.decided {
			w.v.d.Headers(w.Header(), w.limiter.Now())
			if !w.v.d.Allowed {
				code = http.StatusTooManyRequests
			}
		}
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *rateWriter) Write(b []byte) (int, error) {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

// Flush lets streaming responses through.
func (w *rateWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// rateLimitExtension charges a GraphQL operation once it is parsed and
// validated and has passed the query limits, before any resolver runs: the
// points that points(ctx) counts (ctx holds gqlgen's operation context),
// and a content unit per content-creating mutation field. Over a limit it
// refuses the operation with RATE_LIMITED, and nothing of it runs.
type rateLimitExtension struct {
	limiter *ratelimit.Limiter
	points  func(ctx context.Context) int
}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = rateLimitExtension{}

func (rateLimitExtension) ExtensionName() string { return "RateLimit" }

func (rateLimitExtension) Validate(graphql.ExecutableSchema) error { return nil }

func (e rateLimitExtension) MutateOperationContext(ctx context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	v, _ := ctx.Value(rateKey{}).(*rateVerdict)
	u := auth.Viewer(ctx)
	if v == nil || u == nil {
		return nil
	}
	cost := ratelimit.Cost{Points: e.points(ctx), Content: contentFields(oc)}
	d, err := e.limiter.Take(ctx, u.ID, cost)
	if err != nil {
		// The error presenter logs it and answers an internal error.
		return &gqlerror.Error{Err: err, Message: err.Error()}
	}
	v.decided, v.d = true, d
	if !d.Allowed {
		err := apierr.New(apierr.RateLimited, "%s", e.limiter.Message(d))
		return &gqlerror.Error{Err: err, Message: err.Message}
	}
	return nil
}

// contentFields counts the content-creating fields of a mutation: the
// response keys at its root (through fragments) whose field is one of
// contentMutations. Fields with one response key merge and run once.
func contentFields(oc *graphql.OperationContext) int {
	if oc.Operation == nil || oc.Operation.Operation != ast.Mutation {
		return 0
	}
	keys := map[string]bool{}
	seen := map[string]bool{}
	var collect func(set ast.SelectionSet)
	collect = func(set ast.SelectionSet) {
		for _, sel := range set {
			switch s := sel.(type) {
			case *ast.Field:
				if contentMutations[s.Name] {
					key := s.Alias
					if key == "" {
						key = s.Name
					}
					keys[key] = true
				}
			case *ast.InlineFragment:
				collect(s.SelectionSet)
			case *ast.FragmentSpread:
				if f := oc.Doc.Fragments.ForName(s.Name); f != nil && !seen[s.Name] {
					seen[s.Name] = true
					collect(f.SelectionSet)
				}
			}
		}
	}
	collect(oc.Operation.SelectionSet)
	return len(keys)
}
