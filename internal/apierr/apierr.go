// Package apierr is Quire's one error vocabulary. Every layer below the two
// doors returns these errors; the REST presenter turns them into a status and
// {"error":{"code","message"}}, the GraphQL presenter into extensions.code.
package apierr

import (
	"context"
	"errors"
	"fmt"
	"net/http"
)

// Code names a class of failure.
type Code string

// The codes. Their GraphQL spelling is the constant's value.
const (
	NotFound           Code = "NOT_FOUND"
	BadRequest         Code = "BAD_REQUEST"
	Unauthorized       Code = "UNAUTHENTICATED"
	Forbidden          Code = "FORBIDDEN"
	Conflict           Code = "CONFLICT"
	PreconditionFailed Code = "PRECONDITION_FAILED"
	TooLarge           Code = "REQUEST_TOO_LARGE"
	MethodNotAllowed   Code = "METHOD_NOT_ALLOWED"
	RateLimited        Code = "RATE_LIMITED"
	Internal           Code = "INTERNAL"
	// Timeout: the request ran past its deadline; its work was cancelled.
	Timeout Code = "TIMEOUT"
	// Unavailable: the database could not be reached, or no connection to
	// it was free before the request's deadline.
	Unavailable Code = "UNAVAILABLE"
	// Canceled: the client went away before the answer; the status only
	// shows in logs and metrics, as nobody reads the response.
	Canceled Code = "CANCELLED"
)

// StatusClientClosed is the status logged for a request whose client went
// away (nginx's 499): no response reaches anyone.
const StatusClientClosed = 499

// Status is the HTTP status a code maps to.
func (c Code) Status() int {
	switch c {
	case NotFound:
		return http.StatusNotFound
	case BadRequest:
		return http.StatusBadRequest
	case Unauthorized:
		return http.StatusUnauthorized
	case Forbidden:
		return http.StatusForbidden
	case Conflict:
		return http.StatusConflict
	case PreconditionFailed:
		return http.StatusPreconditionFailed
	case TooLarge:
		return http.StatusRequestEntityTooLarge
	case MethodNotAllowed:
		return http.StatusMethodNotAllowed
	case RateLimited:
		return http.StatusTooManyRequests
	case Timeout:
		return http.StatusGatewayTimeout
	case Unavailable:
		return http.StatusServiceUnavailable
	case Canceled:
		return StatusClientClosed
	}
	return http.StatusInternalServerError
}

// Error is a domain error: safe to show to the caller.
type Error struct {
	Code    Code
	Message string
	// Field names the input field that failed validation, if any.
	Field string
	// Cause is the failure behind a Timeout or Unavailable error, for logs;
	// it is never shown to the caller.
	Cause error
}

func (e *Error) Error() string { return e.Message }

// Unwrap returns the cause, so that errors.Is sees a cancelled context or a
// driver error behind the domain error.
func (e *Error) Unwrap() error { return e.Cause }

// New returns an error with a code and message.
func New(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Invalid returns a BadRequest error naming the field that failed.
func Invalid(field, format string, args ...any) *Error {
	return &Error{Code: BadRequest, Field: field, Message: fmt.Sprintf(format, args...)}
}

// NotFoundf returns a NotFound error.
func NotFoundf(format string, args ...any) *Error { return New(NotFound, format, args...) }

// Forbiddenf returns a Forbidden error.
func Forbiddenf(format string, args ...any) *Error { return New(Forbidden, format, args...) }

// As extracts a domain error; ok is false for anything else, which callers
// must treat as internal and never show.
func As(err error) (*Error, bool) {
	var e *Error
	if errors.As(err, &e) {
		return e, true
	}
	return nil, false
}

// CodeOf returns the code of err, Internal for non-domain errors.
func CodeOf(err error) Code {
	if e, ok := As(err); ok {
		return e.Code
	}
	return Internal
}

// Interrupted returns the error to present when ctx has ended while err
// was being produced: Timeout when its deadline passed, Canceled when the
// client went away, either wrapping err. It returns nil while ctx is live
// and for domain errors other than Internal, which keep their meaning.
func Interrupted(ctx context.Context, err error) *Error {
	if ctx.Err() == nil {
		return nil
	}
	if e, ok := As(err); ok && e.Code != Internal {
		return nil
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return &Error{Code: Timeout, Message: TimeoutMessage, Cause: err}
	}
	return &Error{Code: Canceled, Message: "The request was cancelled by the client", Cause: err}
}

// TimeoutMessage is the message of a request that ran past its deadline.
const TimeoutMessage = "The request took longer than its deadline and was cancelled"
