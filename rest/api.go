package rest

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"sync"

	"quire/graph"
	"quire/internal/apierr"
	"quire/internal/requestid"
)

// API is the /v1 handler.
type API struct {
	r      *graph.Resolver
	log    *slog.Logger
	routes []Route
	mux    *http.ServeMux
	// byPattern holds the routes of each pattern registered on mux.
	byPattern map[string][]int

	docOnce sync.Once
	doc     map[string]any
}

// New returns the /v1 API over the resolvers.
func New(r *graph.Resolver, log *slog.Logger) *API {
	a := &API{r: r, log: log}
	a.routes = a.table()
	a.mux = a.newMux()
	return a
}

// Routes returns the route table.
func (a *API) Routes() []Route { return a.routes }

type routeKey struct{}

// RouteHolder receives the route template a request matched, for metrics
// and logs.
type RouteHolder struct{ Pattern string }

// WithRouteHolder returns a context in which ServeHTTP records the route.
func WithRouteHolder(ctx context.Context, h *RouteHolder) context.Context {
	return context.WithValue(ctx, routeKey{}, h)
}

// newMux registers each path of the table once, with the routes of every
// method on it: the mux matches paths, and dispatching the methods here
// answers a wrong one with the documented 405.
func (a *API) newMux() *http.ServeMux {
	mux := http.NewServeMux()
	byPath := map[string][]int{}
	var paths []string
	for i, rt := range a.routes {
		if byPath[rt.Pattern] == nil {
			paths = append(paths, rt.Pattern)
		}
		byPath[rt.Pattern] = append(byPath[rt.Pattern], i)
	}
	a.byPattern = map[string][]int{}
	for _, p := range paths {
		h := a.methods(byPath[p])
		mux.Handle("/v1"+p, h)
		// A trailing slash has always been ignored.
		mux.Handle("/v1"+p+"/{$}", h)
		a.byPattern["/v1"+p], a.byPattern["/v1"+p+"/{$}"] = byPath[p], byPath[p]
	}
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		a.Error(w, r, apierr.NotFoundf("No route matches %s %s", r.Method, r.URL.Path))
	})
	return mux
}

// methods serves one path: the route of the request's method, or 405.
func (a *API) methods(routes []int) http.Handler {
	allowed := make([]string, len(routes))
	for i, ri := range routes {
		allowed[i] = a.routes[ri].Method
	}
	allow := strings.Join(allowed, ", ")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for _, ri := range routes {
			if rt := &a.routes[ri]; rt.Method == r.Method {
				a.serve(w, r, rt)
				return
			}
		}
		w.Header().Set("Allow", allow)
		a.Error(w, r, apierr.New(apierr.MethodNotAllowed, "Method %s is not allowed on %s", r.Method, r.URL.Path))
	})
}

func (a *API) serve(w http.ResponseWriter, r *http.Request, rt *Route) {
	if h, ok := r.Context().Value(routeKey{}).(*RouteHolder); ok {
		h.Pattern = "/v1" + rt.Pattern
	}
	if err := checkParamsNUL(r, rt); err != nil {
		a.Error(w, r, err)
		return
	}
	req := &Request{HTTP: r, Header: w.Header()}
	status, body, err := rt.serve(r.Context(), rt, req)
	if err != nil {
		a.Error(w, r, err)
		return
	}
	write(w, status, body)
}

// RouteOf returns the route that serves a request, or nil when none does
// (an unknown path or method), without serving it.
func (a *API) RouteOf(r *http.Request) *Route {
	_, pattern := a.mux.Handler(r)
	for _, i := range a.byPattern[pattern] {
		if a.routes[i].Method == r.Method {
			return &a.routes[i]
		}
	}
	return nil
}

// ServeHTTP routes a request below /v1.
func (a *API) ServeHTTP(w http.ResponseWriter, r *http.Request) { a.mux.ServeHTTP(w, r) }

// errorBody is the documented error shape.
type errorBody struct {
	Error errorDetail `json:"error"`
}

type errorDetail struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// Error presents err in the documented shape. Non-domain errors are logged
// with the request id and shown as an internal error.
func (a *API) Error(w http.ResponseWriter, r *http.Request, err error) {
	WriteError(w, r, a.log, err)
}

// WriteError presents err in the documented shape.
func WriteError(w http.ResponseWriter, r *http.Request, log *slog.Logger, err error) {
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		err = apierr.New(apierr.TooLarge, "Request body is larger than %d bytes", tooLarge.Limit)
	}
	if ie := apierr.Interrupted(r.Context(), err); ie != nil {
		// Cut short by the deadline or the client: not an internal error.
		err = ie
	}
	e, ok := apierr.As(err)
	if !ok {
		log.ErrorContext(r.Context(), "internal error", "request_id", requestid.From(r.Context()),
			"method", r.Method, "path", r.URL.Path, "error", err.Error())
		e = apierr.New(apierr.Internal, "Internal error")
	} else if e.Cause != nil {
		log.WarnContext(r.Context(), "request failed", "request_id", requestid.From(r.Context()), "code", string(e.Code), "cause", e.Cause.Error())
	}
	status := e.Code.Status()
	write(w, status, errorBody{Error: errorDetail{Code: status, Message: e.Message}})
}

// jsonAppender is a response body that writes its own JSON, the same
// json.Marshal would, for bodies that carry large members already encoded:
// json.Marshal re-reads (compacts) every json.RawMessage it writes.
type jsonAppender interface {
	appendJSON(dst []byte) ([]byte, error)
}

func write(w http.ResponseWriter, status int, body any) {
	if body == nil {
		w.WriteHeader(status)
		return
	}
	var buf []byte
	var err error
	if a, ok := body.(jsonAppender); ok {
		buf, err = a.appendJSON(make([]byte, 0, 4096))
	} else {
		buf, err = json.Marshal(body)
	}
	if err != nil {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		w.Write([]byte(`{"error":{"code":500,"message":"Internal error"}}`))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(buf)
}
