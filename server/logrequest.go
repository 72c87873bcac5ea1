package server

import (
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"quire/internal/requestid"
	"quire/reader"
	"quire/rest"
)

// logRequest counts a request in the metrics, by route template, and logs
// it when the log level asks for it.
func (s *Server) logRequest(r *http.Request, sw *statusWriter, route *rest.RouteHolder, caller *callerHolder, start time.Time) {
	status := sw.status
	if status == 0 {
		status = http.StatusOK
	}
	tmpl := route.Pattern
	if tmpl == "" {
		switch p := r.URL.Path; {
		case p == "/graphql", p == "/healthz", p == "/readyz", p == "/metrics":
			tmpl = p
		case strings.HasPrefix(p, "/graphiql/assets/"):
			tmpl = "/graphiql/assets/"
		case strings.HasPrefix(p, "/openapi/"):
			tmpl = "/openapi/"
		case strings.HasPrefix(p, reader.Prefix):
			tmpl = reader.Prefix
		case strings.HasPrefix(p, reader.AssetsPrefix):
			tmpl = reader.AssetsPrefix
		case strings.HasPrefix(p, reader.AppPrefix):
			tmpl = reader.AppPrefix
		case s.door != nil && s.door.CustomHost(r):
			tmpl = "custom hostname"
		case strings.HasPrefix(p, "/v1/"):
			tmpl = "/v1/unmatched"
		default:
			tmpl = "unmatched"
		}
	}
	d := time.Since(start)
	s.cfg.Metrics.Requests.WithLabelValues(tmpl, r.Method, strconv.Itoa(status)).Observe(d.Seconds())
	// A line per request costs more than the request's own work on a
	// nested read: at the default (info) level only failures of the server
	// and slow requests are written; every request at debug level.
	level := slog.LevelDebug
	if status >= 500 || d >= SlowRequest {
		level = slog.LevelWarn
	}
	ctx := r.Context()
	if !s.cfg.Log.Enabled(ctx, level) {
		return
	}
	s.cfg.Log.LogAttrs(ctx, level, "request", slog.String("request_id", requestid.From(ctx)), slog.String("method", r.Method),
		slog.String("route", tmpl), slog.String("path", r.URL.Path), slog.Int("status", status),
		slog.Float64("duration_ms", float64(d.Microseconds())/1000), slog.String("caller", caller.id))
}

// SlowRequest is the duration from which a request is logged at warn level.
const SlowRequest = time.Second
