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

	docOnce sync.Once
	doc     map[string]any
}

// New returns the /v1 API over the resolvers.
func New(r *graph.Resolver, log *slog.Logger) *API {
	a := &API{r: r, log: log}
	a.routes = a.table()
	return a
}

// Routes returns the route table.
func (a *API) Routes() []Route { return a.routes }

type routeKey struct{}

// RouteTemplate returns the matched route pattern of a request, for metrics
// and logs; set by ServeHTTP into a holder the middleware provides.
type RouteHolder struct{ Pattern string }

// WithRouteHolder returns a context in which ServeHTTP records the route.
func WithRouteHolder(ctx context.Context, h *RouteHolder) context.Context {
	return context.WithValue(ctx, routeKey{}, h)
}

// ServeHTTP routes a request below /v1.
func (a *API) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	path := strings.TrimPrefix(r.URL.Path, "/v1")
	var allowed []string
	for _, rt := range a.routes {
		params, ok := match(rt.Pattern, path)
		if !ok {
			continue
		}
		if rt.Method != r.Method {
			allowed = append(allowed, rt.Method)
			continue
		}
		if h, ok := r.Context().Value(routeKey{}).(*RouteHolder); ok {
			h.Pattern = "/v1" + rt.Pattern
		}
		req := &Request{HTTP: r, params: params, Header: w.Header()}
		status, body, err := rt.Handle(r.Context(), req)
		if err != nil {
			a.Error(w, r, err)
			return
		}
		write(w, status, body)
		return
	}
	if len(allowed) > 0 {
		w.Header().Set("Allow", strings.Join(allowed, ", "))
		a.Error(w, r, apierr.New(apierr.MethodNotAllowed, "Method %s is not allowed on %s", r.Method, r.URL.Path))
		return
	}
	a.Error(w, r, apierr.NotFoundf("No route matches %s %s", r.Method, r.URL.Path))
}

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
	e, ok := apierr.As(err)
	if !ok {
		log.ErrorContext(r.Context(), "internal error", "request_id", requestid.From(r.Context()),
			"method", r.Method, "path", r.URL.Path, "error", err.Error())
		e = apierr.New(apierr.Internal, "Internal error")
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
