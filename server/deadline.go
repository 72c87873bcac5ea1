package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"quire/internal/apierr"
	"quire/internal/db"
	"quire/internal/requestid"
	"quire/rest"
)

// Default deadlines of a request: the time it may take from its headers to
// its answer, and the longer one of a GraphQL multipart request (a file
// upload of up to MaxUploadBytes, read as part of the request).
const (
	DefaultRequestTimeout = 10 * time.Second
	DefaultUploadTimeout  = 60 * time.Second
)

// serveWithDeadline serves r with h under the request's deadline. The
// request's context ends when the deadline passes or the client goes away
// (net/http cancels it then), which cancels the database statements it
// runs and rolls back its transaction. When the deadline passes before h
// has started its answer, the client gets at once the documented error of
// its door: 504 TIMEOUT, or 503 UNAVAILABLE when the request is waiting for
// a database connection that an exhausted pool cannot give. Whatever h
// writes afterwards is dropped. serveWithDeadline returns once h has.
func (s *Server) serveWithDeadline(w http.ResponseWriter, r *http.Request, h http.Handler) {
	limit := s.cfg.RequestTimeout
	if limit <= 0 {
		limit = DefaultRequestTimeout
	}
	if r.URL.Path == "/graphql" && isMultipart(r) {
		limit = s.cfg.UploadTimeout
		if limit <= 0 {
			limit = DefaultUploadTimeout
		}
	}
	ctx, cancel := context.WithTimeout(r.Context(), limit)
	defer cancel()
	waiter := &db.Waiter{}
	ctx = db.WithWaiter(ctx, waiter)
	dw := &deadlineWriter{w: w, header: http.Header{}}
	fired := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		defer close(fired)
		if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return // the client went away: nobody to answer
		}
		e := &apierr.Error{Code: apierr.Timeout, Message: fmt.Sprintf("The request took longer than its deadline (%s) and was cancelled", limit)}
		if s.cfg.DB != nil && s.cfg.DB.Starved(waiter) {
			e = &apierr.Error{Code: apierr.Unavailable, Message: "No database connection was free before the request's deadline; try again later"}
		}
		dw.expire(errorBody(r, e))
	})
	defer func() {
		if !stop() {
			<-fired
		}
	}()
	h.ServeHTTP(dw, r.WithContext(ctx))
}

// fail answers a request refused before its handler ran (its token could
// not be looked up) in the error shape of its door.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	if r.URL.Path != "/graphql" {
		rest.WriteError(w, r, s.cfg.Log, err)
		return
	}
	if ie := apierr.Interrupted(r.Context(), err); ie != nil {
		err = ie
	}
	e, ok := apierr.As(err)
	if !ok {
		s.cfg.Log.ErrorContext(r.Context(), "internal error", "request_id", requestid.From(r.Context()), "method", r.Method, "path", r.URL.Path, "error", err.Error())
		e = apierr.New(apierr.Internal, "Internal error")
	} else if e.Cause != nil {
		s.cfg.Log.WarnContext(r.Context(), "request failed", "request_id", requestid.From(r.Context()), "code", string(e.Code), "cause", e.Cause.Error())
	}
	writeGraphQLError(w, e.Code.Status(), e.Code, e.Message)
}

// errorBody is the documented error of r's door for e.
func errorBody(r *http.Request, e *apierr.Error) (int, []byte) {
	status := e.Code.Status()
	var v any
	if r.URL.Path == "/graphql" {
		v = map[string]any{"errors": []any{map[string]any{"message": e.Message, "extensions": map[string]any{"code": string(e.Code)}}}}
	} else {
		v = map[string]any{"error": map[string]any{"code": status, "message": e.Message}}
	}
	b, _ := json.Marshal(v)
	return status, b
}

// deadlineWriter lets a handler write its answer until the deadline
// writes another one in its place. The handler's headers are kept apart
// until it starts its answer, so that writing the deadline's answer from
// another goroutine never touches a header map the handler is changing.
type deadlineWriter struct {
	mu      sync.Mutex
	w       http.ResponseWriter
	header  http.Header
	started bool // the handler's status line is written
	expired bool // the deadline's answer is written
}

func (d *deadlineWriter) Header() http.Header { return d.header }

// start sends the handler's headers and status; d.mu is held.
func (d *deadlineWriter) start(status int) {
	dst := d.w.Header()
	for k, v := range d.header {
		dst[k] = v
	}
	d.w.WriteHeader(status)
	d.started = true
}

func (d *deadlineWriter) WriteHeader(status int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.expired || d.started {
		return
	}
	d.start(status)
}

func (d *deadlineWriter) Write(b []byte) (int, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.expired {
		return 0, http.ErrHandlerTimeout
	}
	if !d.started {
		d.start(http.StatusOK)
	}
	return d.w.Write(b)
}

// Flush lets streaming answers through.
func (d *deadlineWriter) Flush() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.expired {
		return
	}
	if !d.started {
		d.start(http.StatusOK)
	}
	if f, ok := d.w.(http.Flusher); ok {
		f.Flush()
	}
}

// expire writes the deadline's answer, complete (with its length) and
// flushed so that the client has it before the handler returns, unless the
// handler's answer has started: that one then goes on, cut short by the
// cancelled context.
func (d *deadlineWriter) expire(status int, body []byte) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.started {
		return
	}
	d.expired = true
	h := d.w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	d.w.WriteHeader(status)
	d.w.Write(body)
	if f, ok := d.w.(http.Flusher); ok {
		f.Flush()
	}
}
