// Package server assembles Quire's HTTP handler: middleware, the GraphQL
// endpoint, the /v1 REST API, health and metrics.
package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/vektah/gqlparser/v2/ast"

	"quire/ent"
	"quire/graph"
	"quire/graph/generated"
	"quire/graph/gqlguard"
	"quire/graph/lists"
	"quire/internal/apierr"
	"quire/internal/auth"
	"quire/internal/content"
	"quire/internal/db"
	"quire/internal/gitsync"
	"quire/internal/graphiql"
	"quire/internal/jobs"
	"quire/internal/loaders"
	"quire/internal/metrics"
	"quire/internal/openapispec"
	"quire/internal/ratelimit"
	"quire/internal/requestid"
	"quire/internal/sites"
	"quire/internal/translate"
	"quire/reader"
	"quire/rest"
	"quire/server/app"
)

// MaxBodyBytes bounds a request body on both doors.
const MaxBodyBytes = 1 << 20

// MaxUploadBytes bounds a GraphQL multipart request (a file upload and its
// operations).
const MaxUploadBytes = content.MaxFileSize + MaxBodyBytes

// Config configures the handler.
type Config struct {
	DB *db.DB
	// PublicURL is the base of every urls field, without a trailing slash.
	PublicURL string
	Log       *slog.Logger
	Metrics   *metrics.Metrics
	// MetricsElsewhere leaves /metrics off this handler (404), for a
	// process that serves it on a listener of its own.
	MetricsElsewhere bool
	// SigningKey signs download links (files, PDFs). Empty: a key generated
	// once and kept in the database, shared by every process using it.
	SigningKey string
	// Engines are the engines to serve (app.New). When nil, the server
	// builds them over DB with PublicURL, SigningKey and Jobs.
	Engines *app.Engines
	// Jobs tunes the job runner of the engines the server builds (its
	// Metrics default to Metrics). The server enqueues jobs; it works them
	// only once its runner is started (Jobs().Start).
	Jobs jobs.Config
	// RateLimits are the per-user budgets of both doors, counted in DB;
	// the zero value turns rate limiting off.
	RateLimits ratelimit.Config
	// CacheCallers keeps the callers of tokens for a few seconds on
	// PostgreSQL, forgotten as soon as anything they were read from
	// changes in any process (auth.CallerCache). Close stops it.
	CacheCallers bool
	// CallerTTL is how long a caller is kept (auth.CallerTTL when zero).
	CallerTTL time.Duration
	// PageCacheBytes bounds the reader's cache of rendered pages of
	// published sites (reader.PageCache): reader.DefaultPageCacheBytes when
	// zero, none when negative.
	PageCacheBytes int64
	// KeptSites bounds how many sites' aggregates the sites engine keeps
	// between requests until anything changes (sites.Kept):
	// sites.DefaultKeptSites when zero, none when negative.
	KeptSites int
	// Git configures Git import and export in the engines the server
	// builds.
	Git gitsync.Config
	// OpenAPI configures fetching OpenAPI specifications, for the engines
	// the server builds.
	OpenAPI openapispec.Config
	// RequestTimeout and UploadTimeout are the deadlines of a request and
	// of a GraphQL multipart request (see serveWithDeadline); zero means
	// DefaultRequestTimeout and DefaultUploadTimeout.
	RequestTimeout, UploadTimeout time.Duration
	// Translator translates the pages of translation runs of the engines
	// the server builds (nil: runs are refused).
	Translator translate.Provider
}

// Server is Quire's HTTP handler.
type Server struct {
	cfg      Config
	resolver *graph.Resolver
	gql      *handler.Server
	api      *rest.API
	mux      *http.ServeMux
	door     *reader.Door
	limiter  *ratelimit.Limiter // nil: no rate limits
	callers  *auth.CallerCache  // nil: every request looks its caller up
	content  *db.Hearing        // nil: no page is kept
	jobs     *jobs.Runner
	// own are the engines the server built (Config.Engines was nil): it
	// closes them.
	own *app.Engines

	// The open GraphQL WebSockets, and how many each user has.
	wsMu    sync.Mutex
	wsConns map[*wsConn]bool
	wsUsers map[string]int
}

// Jobs returns the job runner of the server's engines.
func (s *Server) Jobs() *jobs.Runner { return s.jobs }

// New returns the HTTP handler.
func New(cfg Config) http.Handler { return NewServer(cfg) }

// NewServer returns the server with access to its parts.
func NewServer(cfg Config) *Server {
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.NewJSONHandler(io.Discard, nil))
	}
	if cfg.Metrics == nil {
		cfg.Metrics = metrics.New()
	}
	// The pool of GraphQL list workers belongs to the GraphQL layer, which
	// metrics sits below: the server hands it its reading.
	cfg.Metrics.WatchListWorkers(lists.Workers)
	cfg.PublicURL = strings.TrimRight(cfg.PublicURL, "/")
	eng, own := cfg.Engines, (*app.Engines)(nil)
	if eng == nil {
		if cfg.Jobs.Metrics == nil {
			cfg.Jobs.Metrics = cfg.Metrics
		}
		eng = app.New(context.Background(), cfg.DB, app.Config{PublicURL: cfg.PublicURL, SigningKey: cfg.SigningKey, Log: cfg.Log, Jobs: cfg.Jobs, Git: cfg.Git, Translator: cfg.Translator,
			OpenAPI: cfg.OpenAPI})
		own = eng
	}
	r := eng.Resolver
	dl := eng.Downloads
	lim := ratelimit.New(cfg.DB.Client, cfg.RateLimits)
	s := &Server{cfg: cfg, resolver: r, gql: newGraphQL(r, cfg, lim), api: rest.New(r, cfg.Log), limiter: lim, jobs: eng.Jobs,
		own: own, wsConns: map[*wsConn]bool{}, wsUsers: map[string]int{}}
	if cfg.CacheCallers {
		s.callers = auth.NewCallerCache(cfg.DB, cfg.Log, cfg.CallerTTL)
	}
	// Subscriptions: over a WebSocket (websocket.go).
	s.gql.AddTransport(s.websocketTransport())
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	mux.HandleFunc("/readyz", func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		if err := cfg.DB.Ping(ctx); err != nil {
			cfg.Log.ErrorContext(ctx, "readiness check failed", "error", err.Error())
			writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "unavailable"})
			return
		}
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	if !cfg.MetricsElsewhere {
		mux.Handle("/metrics", cfg.Metrics.Handler())
	}
	// Signed download links carry their own authorization.
	mux.Handle("/downloads/", dl.Handler())
	// Single sign-on and the keys of members' claims need no token.
	// They, and the routes below that need no token, spend the anonymous
	// budget of the client's address (limitAnonymous).
	mux.Handle("/sso/", s.limitAnonymous(eng.SSO.Handler(cfg.Log)))
	mux.Handle("GET /.well-known/jwks/{organizationId}", s.limitAnonymous(eng.Claims.Handler(func(ctx context.Context, err error) {
		cfg.Log.ErrorContext(ctx, "internal error", "request_id", requestid.From(ctx), "error", err.Error())
	})))
	// Public specifications, and signed links to private ones, need no
	// token either.
	mux.Handle("/openapi/", s.limitAnonymous(eng.OpenAPI.Handler()))
	mux.Handle("/graphql", graphiql.Middleware("Quire GraphQL", s.authenticated(s.limitGraphQL(http.HandlerFunc(s.serveGraphQL)), graphQLAuthError, loaders.New)))
	mux.Handle(graphiql.AssetsPrefix, graphiql.AssetsHandler())
	mux.Handle("/v1/", s.authenticated(s.limitREST(s.api), restAuthError(cfg.Log), loaders.NewSequential))
	// The API's own description needs no token, nor do an organization's
	// login options (asked before signing in).
	mux.Handle("/v1/openapi.json", s.api)
	mux.Handle("GET /v1/orgs/{organizationId}/sso", s.limitAnonymous(s.anonymous(s.api, loaders.NewSequential)))
	// Published sites, for their readers: by path on Quire's public host,
	// and every path not routed above on a site's custom hostname.
	// Rendered pages and read sites are kept until their content changes,
	// which one hearing follows.
	if cfg.PageCacheBytes >= 0 || cfg.KeptSites >= 0 {
		s.content = cfg.DB.Hear(db.Content, cfg.Log)
	}
	if cfg.KeptSites >= 0 {
		if cfg.KeptSites == 0 {
			cfg.KeptSites = sites.DefaultKeptSites
		}
		eng.Sites.Keep(sites.NewKept(s.content, cfg.KeptSites))
	}
	var pages *reader.PageCache
	if cfg.PageCacheBytes >= 0 {
		cached, rendered := cfg.Metrics.ReaderPages.WithLabelValues("cached"), cfg.Metrics.ReaderPages.WithLabelValues("rendered")
		pages = reader.NewPageCache(s.content, cfg.PageCacheBytes, func(hit bool) {
			if hit {
				cached.Inc()
			} else {
				rendered.Inc()
			}
		})
	}
	// Readers are anonymous. Past its page cache, the door charges the
	// requests it renders to the anonymous budget of their address and
	// gives them their loaders: an answer served from the cache reads
	// nothing, so it spends nothing of a budget that protects the database.
	door := reader.New(r, reader.Config{PublicURL: cfg.PublicURL, Log: cfg.Log, Cache: pages,
		Prepare: func(w http.ResponseWriter, r *http.Request) (*http.Request, bool) {
			if s.limiter != nil && s.limiter.Config().AnonymousLimit > 0 && !s.chargeAnonymous(w, r) {
				return r, false
			}
			return r.WithContext(loaders.With(r.Context(), loaders.NewSequential(cfg.DB.Client))), true
		}})
	s.door = door
	readers := http.Handler(door)
	mux.Handle(reader.Prefix, readers)
	mux.Handle(reader.AssetsPrefix, door.Assets())
	// Organization members' previews, where every urls.app points.
	mux.Handle(reader.AppPrefix, s.members(door, readers))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if door.CustomHost(r) {
			readers.ServeHTTP(w, r)
			return
		}
		rest.WriteError(w, r, cfg.Log, apierr.NotFoundf("No route matches %s %s", r.Method, r.URL.Path))
	})
	s.mux = mux
	return s
}

// Resolver returns the root resolver.
func (s *Server) Resolver() *graph.Resolver { return s.resolver }

// Close ends the server's WebSockets, and closes the engines it built
// itself (their event bus). Run it once the HTTP server has stopped.
func (s *Server) Close() {
	s.CloseWebSockets()
	s.callers.Close()
	s.content.Close()
	if s.own != nil {
		_ = s.own.Close()
	}
}

// API returns the REST API.
func (s *Server) API() *rest.API { return s.api }

// CallersReady is closed once kept callers are served (see
// auth.CallerCache.Ready); at once when callers are not kept.
func (s *Server) CallersReady() <-chan struct{} { return s.callers.Ready() }

// PagesReady is closed once rendered pages of published sites are kept
// (see reader.PageCache): when the notification connection that tells
// content changes is first up on PostgreSQL; at once on SQLite, or when
// no page is kept.
func (s *Server) PagesReady() <-chan struct{} { return s.content.Ready() }

// ContentChanges is the hearing of content changes the reader's page cache
// follows; nil when no page is kept.
func (s *Server) ContentChanges() *db.Hearing { return s.content }

// Callers is the cache of callers; nil when callers are not kept.
func (s *Server) Callers() *auth.CallerCache { return s.callers }

func newGraphQL(r *graph.Resolver, cfg Config, lim *ratelimit.Limiter) *handler.Server {
	limits := gqlguard.DefaultLimits()
	srv := handler.New(generated.NewExecutableSchema(generated.Config{Resolvers: r}))
	// Transports of Quire's own (graphqlhttp.go), routed by serveGraphQL.
	srv.AddTransport(postTransport{})
	srv.AddTransport(getTransport{})
	// File uploads (uploadFile) use the GraphQL multipart request format.
	srv.AddTransport(uploadTransport{maxBytes: MaxUploadBytes, maxMemory: 8 << 20})
	srv.SetQueryCache(lru.New[*ast.QueryDocument](1000))
	srv.SetParserTokenLimit(limits.MaxTokens)
	srv.SetValidationRulesFn(gqlguard.ValidationRules)
	srv.SetDisableSuggestion(true)
	srv.Use(extension.Introspection{})
	srv.Use(gqlguard.LimitExtension(limits))
	srv.Use(gqlguard.NULCheck())
	srv.Use(gqlguard.NodeBudget(limits))
	if cfg.DB != nil {
		// Subscriptions read memberships afresh (a server made without a
		// database, as in tests of refusals, serves none).
		srv.Use(subscriptionScope{client: cfg.DB.Client})
	}
	if lim != nil {
		// Last of the checks before execution: a refused document costs nothing.
		srv.Use(rateLimitExtension{limiter: lim, points: gqlguard.RatePoints})
	}
	srv.SetErrorPresenter(graph.PresentError(cfg.Log))
	srv.SetRecoverFunc(func(ctx context.Context, v any) error {
		cfg.Log.ErrorContext(ctx, "panic in resolver", "request_id", requestid.From(ctx), "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
		return errors.New("internal error")
	})
	srv.AroundOperations(func(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
		oc := graphql.GetOperationContext(ctx)
		start := time.Now()
		name := oc.OperationName
		if name == "" {
			name = "anonymous"
		}
		rh := next(ctx)
		return func(ctx context.Context) *graphql.Response {
			resp := rh(ctx)
			outcome := "ok"
			if resp != nil && len(resp.Errors) > 0 {
				outcome = "error"
				for _, e := range resp.Errors {
					code, _ := e.Extensions["code"].(string)
					if code == "" {
						code = "UNKNOWN"
					}
					cfg.Metrics.GraphQLErrors.WithLabelValues(name, code).Inc()
				}
			}
			cfg.Metrics.GraphQL.WithLabelValues(name, outcome).Observe(time.Since(start).Seconds())
			return resp
		}
	})
	return srv
}

func isMultipart(r *http.Request) bool {
	return strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/form-data")
}

// ServeHTTP runs the middleware chain and routes the request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	id := r.Header.Get("X-Request-Id")
	if id == "" || len(id) > 64 {
		id = requestid.New()
	}
	w.Header().Set("X-Request-Id", id)
	ctx := requestid.With(r.Context(), id)
	route := &rest.RouteHolder{}
	ctx = rest.WithRouteHolder(ctx, route)
	caller := &callerHolder{}
	ctx = context.WithValue(ctx, callerKey{}, caller)
	sw := &statusWriter{ResponseWriter: w}
	r = r.WithContext(ctx)
	limit := int64(MaxBodyBytes)
	if r.URL.Path == "/graphql" && isMultipart(r) {
		limit = MaxUploadBytes
	}
	r.Body = http.MaxBytesReader(sw, r.Body, limit)
	ws := isWebSocket(r)
	defer func() {
		if v := recover(); v != nil {
			s.cfg.Log.ErrorContext(ctx, "panic", "request_id", id, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			if sw.status == 0 {
				rest.WriteError(sw, r, s.cfg.Log, errors.New("panic"))
			}
		}
		s.logRequest(r, sw, route, caller, start)
	}()
	if ws {
		// A WebSocket lasts as long as its subscriptions: no deadline.
		s.serveWebSocket(sw, r)
		return
	}
	s.serveWithDeadline(sw, r, s.mux)
}

type callerKey struct{}

type callerHolder struct{ id string }

// authenticated resolves the bearer token into the viewer and gives the
// request its dataloaders (newLoaders: GraphQL resolves fields concurrently,
// a REST handler runs in one goroutine); it refuses requests without a valid
// token, once they are charged to their address (chargeAnonymous): one
// without a token before anything is read, one with a token once its
// lookup found none, so that valid tokens spend nothing of it.
func (s *Server) authenticated(next http.Handler, deny func(http.ResponseWriter, *http.Request, string), newLoaders func(*ent.Client) *loaders.Loaders) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := r.Context()
		secret := auth.BearerToken(r.Header.Get("Authorization"))
		if secret == "" {
			if !s.chargeAnonymous(w, r) {
				return
			}
			deny(w, r, "Authentication required: send Authorization: Bearer <token>")
			return
		}
		caller, err := s.callers.Lookup(ctx, s.cfg.DB.Client, secret)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		if caller == nil {
			if !s.chargeAnonymous(w, r) {
				return
			}
			deny(w, r, "Invalid API token")
			return
		}
		u := caller.User
		if h, ok := ctx.Value(callerKey{}).(*callerHolder); ok {
			h.id = u.ID
		}
		ctx = auth.WithScope(auth.WithViewer(ctx, u), caller.Scope)
		l := newLoaders(s.cfg.DB.Client)
		l.PrimeCaller(caller.Memberships, caller.Organizations)
		l.PrimeGrants(caller.Grants)
		ctx = loaders.With(ctx, l)
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// anonymous serves a route that needs no token with fresh loaders and no
// caller, whatever the request's Authorization says.
func (s *Server) anonymous(next http.Handler, newLoaders func(*ent.Client) *loaders.Loaders) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := loaders.With(r.Context(), newLoaders(s.cfg.DB.Client))
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

func restAuthError(log *slog.Logger) func(http.ResponseWriter, *http.Request, string) {
	return func(w http.ResponseWriter, r *http.Request, msg string) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="quire"`)
		rest.WriteError(w, r, log, apierr.New(apierr.Unauthorized, "%s", msg))
	}
}

func graphQLAuthError(w http.ResponseWriter, r *http.Request, msg string) {
	w.Header().Set("WWW-Authenticate", `Bearer realm="quire"`)
	writeGraphQLError(w, http.StatusUnauthorized, apierr.Unauthorized, msg)
}

func writeGraphQLError(w http.ResponseWriter, status int, code apierr.Code, msg string) {
	writeJSON(w, status, map[string]any{"errors": []any{map[string]any{"message": msg, "extensions": map[string]any{"code": string(code)}}}})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// statusWriter records the status written.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// Flush lets streaming responses through.
func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}
