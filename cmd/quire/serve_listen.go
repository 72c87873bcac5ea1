package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"quire/internal/metrics"
)

// envMetricsAddr moves /metrics to a listener of its own.
const envMetricsAddr = "QUIRE_METRICS_ADDR"

// listen binds addr for the flag that named it, logging why it cannot.
func listen(log *slog.Logger, flagName, addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		err = fmt.Errorf("cannot listen on %s (%s): %w", addr, flagName, err)
		log.Error(err.Error(), "addr", addr)
		return nil, err
	}
	return ln, nil
}

// listenerAddr is the address ln is bound to, or "" without one.
func listenerAddr(ln net.Listener) string {
	if ln == nil {
		return ""
	}
	return ln.Addr().String()
}

// swapHandler serves through the handler set last, so that the port can
// answer while the real handler is still being built.
type swapHandler struct {
	h atomic.Pointer[http.Handler]
}

func (s *swapHandler) set(h http.Handler) { s.h.Store(&h) }

func (s *swapHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	(*s.h.Load()).ServeHTTP(w, r)
}

// startingHandler answers while the database is migrated: the process is
// up (/healthz) but not ready (/readyz), and nothing else is served yet.
func startingHandler() http.Handler {
	write := func(w http.ResponseWriter, code int, body string) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		fmt.Fprintln(w, body)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/healthz":
			write(w, http.StatusOK, `{"status":"ok"}`)
		case "/readyz":
			write(w, http.StatusServiceUnavailable, `{"status":"starting"}`)
		default:
			w.Header().Set("Retry-After", "5")
			write(w, http.StatusServiceUnavailable,
				`{"error":{"code":503,"message":"The server is starting: its database is being migrated. Try again shortly."}}`)
		}
	})
}

// metricsServer serves m at /metrics alone, for --metrics-addr.
func metricsServer(m *metrics.Metrics, log *slog.Logger) *http.Server {
	mux := http.NewServeMux()
	mux.Handle("/metrics", m.Handler())
	return &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
}

// shutdown stops the servers (msrv may be nil) gracefully, both within
// shutdownTimeout, and waits for their Serve calls, which report on served.
// It tells whether everything finished cleanly.
func shutdown(log *slog.Logger, served <-chan error, srv, msrv *http.Server) bool {
	servers := []*http.Server{srv}
	if msrv != nil {
		servers = append(servers, msrv)
	}
	ctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	ok := true
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, s := range servers {
		wg.Go(func() {
			if err := s.Shutdown(ctx); err != nil {
				log.Error("shutdown: in-flight requests did not finish in time", "error", err.Error())
				s.Close()
				mu.Lock()
				ok = false
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	for range servers {
		select {
		case err := <-served:
			if err != nil && !errors.Is(err, http.ErrServerClosed) {
				log.Error("serve", "error", err.Error())
				ok = false
			}
		case <-time.After(shutdownTimeout):
			return false
		}
	}
	return ok
}
