package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"quire/internal/db"
	"quire/internal/gitsync"
	"quire/internal/jobs"
	"quire/internal/metrics"
	"quire/internal/openapispec"
	"quire/internal/ratelimit"
	"quire/internal/sites"
	"quire/internal/translate"
	"quire/reader"
	"quire/server"
	"quire/server/app"
)

// Server timeouts. Each request also has a deadline (--request-timeout,
// --upload-timeout) within which its handler answers; writeTimeout, which
// cuts the connection, is kept beyond the longest deadline (writeTimeoutFor)
// so that the deadline's own answer (504) always gets through.
const (
	readHeaderTimeout = 10 * time.Second
	readTimeout       = 60 * time.Second
	writeTimeout      = 120 * time.Second
	idleTimeout       = 120 * time.Second
	shutdownTimeout   = 20 * time.Second
	sweepInterval     = time.Minute
	// statementMargin is how much longer than the request deadline a
	// PostgreSQL statement may run (statement_timeout) before the server
	// ends it, should its cancellation be lost.
	statementMargin = time.Second
)

// writeTimeoutFor is the server's WriteTimeout for the request deadlines:
// writeTimeout, or 10 s beyond the longest deadline when that is later.
func writeTimeoutFor(deadlines ...time.Duration) time.Duration {
	w := writeTimeout
	for _, d := range deadlines {
		w = max(w, d+10*time.Second)
	}
	return w
}

// positiveDuration parses a deadline such as 10s or 1m30s.
func positiveDuration(s string) (time.Duration, error) {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil || d <= 0 {
		return 0, errors.New("must be a positive duration, such as 10s or 2m")
	}
	return d, nil
}

// envGitFetchPrivate lets Git remotes be reached inside the server's
// network (an internal Git server).
const envGitFetchPrivate = "QUIRE_GIT_FETCH_PRIVATE"

// fileRoots parses --git-file-roots: absolute paths of directories.
func fileRoots(list string) ([]string, error) {
	var out []string
	for _, p := range strings.Split(list, ",") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		if !filepath.IsAbs(p) {
			return nil, fmt.Errorf("%q is not an absolute path", p)
		}
		if st, err := os.Stat(p); err != nil || !st.IsDir() {
			return nil, fmt.Errorf("%q is not a directory", p)
		}
		out = append(out, filepath.Clean(p))
	}
	return out, nil
}

// serve implements "quire serve".
func (e *env) serve(ctx context.Context, args []string) int {
	fs := e.newFlagSet("quire serve")
	addr := fs.String("addr", e.envOr(envAddr, defaultAddr), "listen address `HOST:PORT`; port 0 picks a free port (env "+envAddr+")")
	dbf := e.databaseFlags(fs)
	metricsAddr := fs.String("metrics-addr", e.getenv(envMetricsAddr),
		"serve /metrics on this address `HOST:PORT` only, apart from the API (whose /metrics then answers 404); empty: on the API's address (env "+envMetricsAddr+")")
	publicURL := fs.String("public-url", e.getenv(envPublicURL), "public base `URL` of the server (env "+envPublicURL+"; default http:// + the listen address)")
	limitFlags := e.rateLimitFlags(fs)
	requestTimeout := fs.String("request-timeout", e.envOr(envRequestTimeout, server.DefaultRequestTimeout.String()),
		"deadline of a request, a `DURATION` such as 10s or 1m30s: past it the request is cancelled and answered 504 (env "+envRequestTimeout+")")
	uploadTimeout := fs.String("upload-timeout", e.envOr(envUploadTimeout, server.DefaultUploadTimeout.String()),
		"`DURATION` of a GraphQL multipart request (a file upload) before it is answered 504 (env "+envUploadTimeout+")")
	jobWorkers := fs.String("job-workers", e.envOr(envJobWorkers, "4"),
		"background jobs this process works at a time, `N` from 0 to 1000; 0: it works none, leaving them to other processes (env "+envJobWorkers+")")
	pageCacheMB := fs.String("page-cache-mb", e.envOr(envPageCacheMB, strconv.Itoa(reader.DefaultPageCacheBytes>>20)),
		"`MB` of rendered pages of published sites kept until their content changes, 0 to 100000; 0 keeps none (env "+envPageCacheMB+")")
	keptSites := fs.String("kept-sites", e.envOr(envKeptSites, strconv.Itoa(sites.DefaultKeptSites)),
		"`N` sites whose read structure, spaces and collections are kept until anything changes, 0 to 100000; 0 keeps none (env "+envKeptSites+")")
	gitRoots := fs.String("git-file-roots", e.getenv(envGitFileRoots),
		"directories (`DIRS`, comma-separated absolute paths) whose Git repositories imports and exports may name with file:// URLs; none by default (env "+envGitFileRoots+")")
	gitPrivateEnv, gitEnvErr := strconv.ParseBool(strings.TrimSpace(e.envOr(envGitFetchPrivate, "false")))
	gitPrivate := fs.Bool("git-fetch-private", gitPrivateEnv,
		"let Git imports and exports reach repositories at loopback, private and link-local addresses, inside the server's network (env "+envGitFetchPrivate+"=true)")
	translateURL := fs.String("translate-url", e.getenv(envTranslateURL),
		"base `URL` of the LibreTranslate server that translation runs use; empty: runs are refused (env "+envTranslateURL+"; its API key: env "+envTranslateKey+")")
	privateEnv, envErr := strconv.ParseBool(strings.TrimSpace(e.envOr(envOpenAPIFetchPrivate, "false")))
	fetchPrivate := fs.Bool("openapi-fetch-private", privateEnv,
		"let OpenAPI specifications be fetched from loopback, private and link-local addresses, inside the server's network (env "+envOpenAPIFetchPrivate+"=true)")
	if code, done := e.parse(fs, args); done {
		return code
	}
	if envErr != nil {
		return e.usageError(fs, "%s %q: must be true or false", envOpenAPIFetchPrivate, e.getenv(envOpenAPIFetchPrivate))
	}
	if gitEnvErr != nil {
		return e.usageError(fs, "%s %q: must be true or false", envGitFetchPrivate, e.getenv(envGitFetchPrivate))
	}
	roots, err := fileRoots(*gitRoots)
	if err != nil {
		return e.usageError(fs, "--git-file-roots: %v", err)
	}
	var translator translate.Provider
	if u := strings.TrimSpace(*translateURL); u != "" {
		if !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
			return e.usageError(fs, "--translate-url %q must start with http:// or https://", u)
		}
		translator = translate.NewLibreTranslate(u, e.getenv(envTranslateKey))
	}
	cacheMB, err := strconv.Atoi(strings.TrimSpace(*pageCacheMB))
	if err != nil || cacheMB < 0 || cacheMB > 100_000 {
		return e.usageError(fs, "--page-cache-mb %q: must be a whole number from 0 to 100000", *pageCacheMB)
	}
	pageCacheBytes := int64(cacheMB) << 20
	if cacheMB == 0 {
		pageCacheBytes = -1
	}
	kept, err := strconv.Atoi(strings.TrimSpace(*keptSites))
	if err != nil || kept < 0 || kept > 100_000 {
		return e.usageError(fs, "--kept-sites %q: must be a whole number from 0 to 100000", *keptSites)
	}
	if kept == 0 {
		kept = -1
	}
	workers, err := strconv.Atoi(strings.TrimSpace(*jobWorkers))
	if err != nil || workers < 0 || workers > 1000 {
		return e.usageError(fs, "--job-workers %q: must be a whole number from 0 to 1000", *jobWorkers)
	}
	limits, err := limitFlags.config(fs)
	if err != nil {
		return e.usageError(fs, "%v", err)
	}
	reqLimit, err := positiveDuration(*requestTimeout)
	if err != nil {
		return e.usageError(fs, "--request-timeout %q: %v", *requestTimeout, err)
	}
	uploadLimit, err := positiveDuration(*uploadTimeout)
	if err != nil {
		return e.usageError(fs, "--upload-timeout %q: %v", *uploadTimeout, err)
	}
	*publicURL = strings.TrimRight(strings.TrimSpace(*publicURL), "/")
	if *publicURL != "" && !strings.HasPrefix(*publicURL, "http://") && !strings.HasPrefix(*publicURL, "https://") {
		return e.usageError(fs, "--public-url %q must start with http:// or https://", *publicURL)
	}

	m := metrics.New()
	dbOpts, err := dbf.options(fs, db.Options{OnStatement: m.Statements.Inc, StatementTimeout: reqLimit + statementMargin,
		SQLite: sqliteCreate(*dbf.url)})
	if err != nil {
		return e.usageError(fs, "%v", err)
	}
	*metricsAddr = strings.TrimSpace(*metricsAddr)

	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	log := e.logger()
	gcPercent := server.TuneGC(e.getenv)

	// The ports are bound before anything else, so that one taken fails
	// the start at once, before a migration runs or a file is created.
	ln, err := listen(log, "--addr", *addr)
	if err != nil {
		return exitFailure
	}
	defer ln.Close()
	var mln net.Listener
	if *metricsAddr != "" {
		if mln, err = listen(log, "--metrics-addr", *metricsAddr); err != nil {
			return exitFailure
		}
		defer mln.Close()
	}
	if *publicURL == "" {
		*publicURL = "http://" + publicHost(*addr, ln.Addr())
	}
	// Until the database is migrated and the engines are up, the port
	// answers: /healthz ok, /readyz and everything else 503.
	handler := &swapHandler{}
	handler.set(startingHandler())
	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeoutFor(reqLimit, uploadLimit),
		IdleTimeout:       idleTimeout,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	served := make(chan error, 2)
	go func() { served <- srv.Serve(ln) }()
	defer srv.Close() // after a failed start; a no-op after Shutdown
	var msrv *http.Server
	if mln != nil {
		msrv = metricsServer(m, log)
		go func() { served <- msrv.Serve(mln) }()
		defer msrv.Close()
	}
	log.Info("bound", "addr", ln.Addr().String(), "metrics_addr", listenerAddr(mln))

	d, err := e.openDatabase(log, *dbf.url, dbOpts)
	if err != nil {
		return exitFailure
	}
	defer d.Close()
	m.WatchDB(d.SQL)
	res, err := d.MigrateReport(ctx)
	if err != nil {
		log.Error("migrate", "database", databaseLocation(*dbf.url), "error", err.Error())
		return exitFailure
	}
	log.Info("migrated", append(migratedAttrs(*dbf.url, d.Dialect, res), "gogc", gcPercent)...)

	// The engines, connected once, serve both doors and the background jobs.
	// The signing key is a secret: read from the environment only, never a flag.
	eng := app.New(ctx, d, app.Config{PublicURL: *publicURL, SigningKey: e.getenv(envSigningKey), Log: log,
		Jobs: jobs.Config{Workers: max(workers, 1), Metrics: m}, SweepInterval: sweepInterval,
		Git: gitsync.Config{FileRoots: roots, AllowPrivate: *gitPrivate}, Translator: translator,
		OpenAPI: openapispec.Config{FetchPrivate: *fetchPrivate}})
	qs := server.NewServer(server.Config{
		DB:               d,
		Engines:          eng,
		PublicURL:        *publicURL,
		Log:              log,
		Metrics:          m,
		MetricsElsewhere: mln != nil,
		RateLimits:       limits,
		RequestTimeout:   reqLimit,
		UploadTimeout:    uploadLimit,
		CacheCallers:     true,
		PageCacheBytes:   pageCacheBytes,
		KeptSites:        kept,
	})
	defer qs.Close()

	// Background work gets its own context so that it stops only once the
	// server has drained.
	sweepCtx, stopSweep := context.WithCancel(context.WithoutCancel(ctx))
	defer stopSweep()
	var wg sync.WaitGroup
	if workers > 0 {
		if err := eng.Jobs.Start(sweepCtx); err != nil {
			log.Error("start background jobs", "error", err.Error())
			return exitFailure
		}
	}
	if lim := ratelimit.New(d.Client, limits); lim != nil {
		// Every process sweeps past windows' counters: the same rows whoever does.
		wg.Go(func() {
			lim.Run(sweepCtx, sweepInterval, func(err error) { log.Error("sweep rate limit counters", "error", err.Error()) })
		})
	}

	handler.set(qs)

	log.Info("listening", "addr", ln.Addr().String(), "metrics_addr", listenerAddr(mln), "public_url", *publicURL,
		"rate_limit", limits.Limit, "rate_limit_content", limits.ContentLimit, "rate_limit_window", limits.Window.String(),
		"request_timeout", reqLimit.String(), "upload_timeout", uploadLimit.String())
	log.Info("to create a first organization, admin user and API token, run",
		"command", "quire admin bootstrap --database-url "+shellQuote(redactURL(*dbf.url))+` --org "My org" --email you@example.com`)

	code := exitOK
	select {
	case err := <-served:
		// Serve returned before any shutdown was asked for.
		log.Error("serve", "error", err.Error())
		code = exitFailure
	case <-ctx.Done():
		stop() // a second signal kills the process at once
		log.Info("shutting down", "timeout", shutdownTimeout.String())
		if !shutdown(log, served, srv, msrv) {
			code = exitFailure
		}
	}
	// Jobs still running get until the shutdown timeout to finish; those
	// cut short run again later, here or in another process.
	jobsCtx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	if err := eng.Jobs.Stop(jobsCtx); err != nil {
		log.Error("stop background jobs", "error", err.Error())
	}
	cancel()
	stopSweep()
	wg.Wait()
	if err := d.Close(); err != nil {
		log.Error("close database", "error", err.Error())
	}
	log.Info("stopped")
	return code
}

// publicHost returns the HOST:PORT for the default public URL: the address
// as given, with the real port when port 0 was asked for and "localhost"
// when listening on every interface.
func publicHost(addr string, real net.Addr) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return real.String()
	}
	if port == "0" || port == "" {
		if _, p, err := net.SplitHostPort(real.String()); err == nil {
			port = p
		}
	}
	switch host {
	case "", "0.0.0.0", "::":
		host = "localhost"
	}
	return net.JoinHostPort(host, port)
}
