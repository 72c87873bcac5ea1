package openapispec

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"time"

	"quire/internal/netpolicy"
)

// fetcher reads specification files over HTTP for a processing job, with
// the limits a hostile source must not get past: http and https only, a
// timeout per file, a size cap, a bounded number of redirects, and no
// connection to loopback, private or link-local addresses unless the
// operator allows them (Config.FetchPrivate). The address check
// (netpolicy, shared with Git sync) runs when the connection is made, on
// the address actually dialled, so a name that resolves to an inside
// address (DNS rebinding included) is refused too.
type fetcher struct {
	client       *http.Client
	timeout      time.Duration
	allowPrivate bool
}

func newFetcher(cfg Config) *fetcher {
	f := &fetcher{timeout: cfg.FetchTimeout, allowPrivate: cfg.FetchPrivate}
	dialer := netpolicy.Dialer(cfg.FetchPrivate, 10*time.Second)
	transport := &http.Transport{
		// Never a proxy from the environment: the address checks would
		// then see the proxy's address, not the source's.
		Proxy:                  nil,
		DialContext:            dialer.DialContext,
		ForceAttemptHTTP2:      true,
		TLSHandshakeTimeout:    10 * time.Second,
		ResponseHeaderTimeout:  cfg.FetchTimeout,
		MaxResponseHeaderBytes: 64 << 10,
		MaxIdleConns:           16,
		IdleConnTimeout:        30 * time.Second,
	}
	f.client = &http.Client{
		Transport: transport,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > MaxRedirects {
				return &fetchError{code: CodeFetchError, msg: fmt.Sprintf("more than %d redirects", MaxRedirects)}
			}
			if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
				return &fetchError{code: CodeFetchError, msg: fmt.Sprintf("redirected to %s, which is not an http or https URL", req.URL.Redacted())}
			}
			return nil
		},
	}
	return f
}

// fetchError is why a file could not be fetched. transient errors (time
// outs, connection failures, 5xx, 408 and 429 answers) are worth another
// attempt; the others are not.
type fetchError struct {
	code      string // CodeFetchTimeout or CodeFetchError
	url       string
	msg       string
	transient bool
}

func (e *fetchError) Error() string {
	if e.url == "" {
		return e.msg
	}
	return e.url + ": " + e.msg
}

// insideMessage says why a connection to a was refused.
func insideMessage(a netip.Addr) string {
	return fmt.Sprintf("the address %s is loopback, private, link-local or otherwise inside the server's network, where Quire does not fetch from (an operator may allow it with --openapi-fetch-private)", a)
}

// get fetches one file. It returns the text and the URL it was read from
// after redirects.
func (f *fetcher) get(ctx context.Context, u *url.URL) ([]byte, *url.URL, error) {
	shown := u.Redacted()
	ctx, cancel := context.WithTimeout(ctx, f.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, nil, &fetchError{code: CodeFetchError, url: shown, msg: "not a URL that can be fetched"}
	}
	req.Header.Set("Accept", "application/yaml, application/json;q=0.9, text/yaml;q=0.8, */*;q=0.5")
	req.Header.Set("User-Agent", "Quire-OpenAPI-Fetcher/1")
	resp, err := f.client.Do(req)
	if err != nil {
		return nil, nil, f.classify(ctx, shown, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		transient := resp.StatusCode >= 500 || resp.StatusCode == http.StatusRequestTimeout || resp.StatusCode == http.StatusTooManyRequests
		return nil, nil, &fetchError{code: CodeFetchError, url: shown, transient: transient,
			msg: fmt.Sprintf("the server answered %d %s", resp.StatusCode, http.StatusText(resp.StatusCode))}
	}
	if resp.ContentLength > MaxFileBytes {
		return nil, nil, tooLarge(shown)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxFileBytes+1))
	if err != nil {
		return nil, nil, f.classify(ctx, shown, err)
	}
	if len(body) > MaxFileBytes {
		return nil, nil, tooLarge(shown)
	}
	return body, resp.Request.URL, nil
}

func tooLarge(shown string) error {
	return &fetchError{code: CodeFetchError, url: shown, msg: fmt.Sprintf("the file is larger than %d MiB, the most Quire reads of one file", MaxFileBytes>>20)}
}

// classify turns a transport error into a fetchError.
func (f *fetcher) classify(ctx context.Context, shown string, err error) error {
	var fe *fetchError
	if errors.As(err, &fe) {
		fe.url = shown
		return fe
	}
	var in *netpolicy.RefusedError
	if errors.As(err, &in) {
		return &fetchError{code: CodeFetchError, url: shown, msg: insideMessage(in.Addr)}
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded) || isTimeout(err) {
		return &fetchError{code: CodeFetchTimeout, url: shown, transient: true,
			msg: fmt.Sprintf("no complete answer within %s", f.timeout)}
	}
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return &fetchError{code: CodeFetchError, url: shown, transient: true, msg: fmt.Sprintf("the host name %s could not be resolved", dns.Name)}
	}
	var op *net.OpError
	if errors.As(err, &op) {
		return &fetchError{code: CodeFetchError, url: shown, transient: true, msg: "could not connect: " + op.Err.Error()}
	}
	return &fetchError{code: CodeFetchError, url: shown, transient: true, msg: "the request failed: " + rootCause(err)}
}

func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}

// rootCause is the innermost message of an error chain, without the URL
// the http package repeats.
func rootCause(err error) string {
	for {
		u := errors.Unwrap(err)
		if u == nil {
			return err.Error()
		}
		err = u
	}
}
