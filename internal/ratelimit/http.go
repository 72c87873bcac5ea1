package ratelimit

import (
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// Headers sets the rate-limit headers of an answer, as GitHub sends them:
// X-RateLimit-Limit, -Remaining, -Used, -Reset (when the window ends, in
// seconds since the Unix epoch) and -Resource (the bucket). They describe
// the core bucket (the anonymous one for a request without a valid
// token), or, for a refused request, the bucket that refused it;
// a refusal also gets Retry-After, the seconds until that bucket is full
// again. With the core bucket off, an allowed request gets none.
func (d Decision) Headers(h http.Header, now time.Time) {
	u := d.Core
	if d.Refused != nil {
		u = *d.Refused
	}
	if u.Limit == 0 {
		return
	}
	h.Set("X-RateLimit-Limit", strconv.Itoa(u.Limit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(u.Remaining()))
	h.Set("X-RateLimit-Used", strconv.Itoa(min(u.Used, u.Limit)))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(u.Reset.Unix(), 10))
	h.Set("X-RateLimit-Resource", string(u.Bucket))
	if d.Refused != nil {
		h.Set("Retry-After", strconv.FormatInt(retryAfter(u.Reset, now), 10))
	}
}

// retryAfter is the whole seconds from now until reset, at least 1.
func retryAfter(reset, now time.Time) int64 {
	wait := reset.Sub(now)
	s := int64(wait / time.Second)
	if wait%time.Second != 0 {
		s++
	}
	return max(s, 1)
}

// Message says why a request was refused, for the error the client gets.
func (l *Limiter) Message(d Decision) string {
	u := d.Refused
	if u == nil {
		return ""
	}
	per := per(l.cfg.Window)
	at := u.Reset.UTC().Format(time.RFC3339)
	switch {
	case u.Bucket == Content:
		return fmt.Sprintf("Content creation limit exceeded: at most %d objects created %s; try again after %s", u.Limit, per, at)
	case u.Bucket == Anonymous:
		return fmt.Sprintf("Rate limit exceeded for requests without a valid API token: at most %d %s from one address; send Authorization: Bearer <token>, or try again after %s", u.Limit, per, at)
	case d.Cost > 1:
		return fmt.Sprintf("API rate limit exceeded: this operation costs %d points and %d of %d points %s remain until %s", d.Cost, u.Remaining(), u.Limit, per, at)
	}
	return fmt.Sprintf("API rate limit exceeded: %d points %s spent; the budget is full again at %s", u.Limit, per, at)
}

// per names a window: "per hour", "per 10m0s".
func per(w time.Duration) string {
	switch w {
	case time.Hour:
		return "per hour"
	case time.Minute:
		return "per minute"
	case 24 * time.Hour:
		return "per day"
	}
	return "per " + w.String()
}
