// Package apierr is Quire's one error vocabulary. Every layer below the two
// doors returns these errors; the REST presenter turns them into a status and
// {"error":{"code","message"}}, the GraphQL presenter into extensions.code.
package apierr

import (
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
)

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
	}
	return http.StatusInternalServerError
}

// Error is a domain error: safe to show to the caller.
type Error struct {
	Code    Code
	Message string
	// Field names the input field that failed validation, if any.
	Field string
}

func (e *Error) Error() string { return e.Message }

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
