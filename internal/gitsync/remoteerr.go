package gitsync

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"syscall"
	"unicode"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/transport"
	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"

	"quire/internal/jobs"
	"quire/internal/netpolicy"
)

// remoteError is a failure to talk to a repository's server, said in
// Quire's words. The words are few on purpose: a job's error must not turn
// Quire into a port scanner (an open port, a closed one and a database all
// fail alike) nor carry what a server answered (the body of an internal
// service's 401 may hold anything). What go-git and the network said goes
// to the log.
type remoteError struct {
	msg string
	// final: retrying cannot help.
	final bool
}

func (e *remoteError) Error() string { return e.msg }

// The beginnings of remoteError messages, one for each kind of failure.
const (
	sayConnect    = "could not connect"
	sayNotGit     = "not a Git repository"
	sayAuth       = "authentication refused"
	sayTimeout    = "timed out"
	sayNotAllowed = "address not allowed"
)

// fail turns an error of the Git transport into a remoteError (permanent
// when retrying cannot help), logging the original. reading tells an
// error while the repository's objects were being received, when the
// server has shown itself a Git server already. Quire's own errors pass
// unchanged.
func (s *session) fail(err error, reading bool) error {
	var re *remoteError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &re), jobs.IsPermanent(err), errors.Is(err, errTooLarge), errors.Is(err, errBadPack),
		errors.Is(err, errRefMissing), errors.Is(err, errMoved):
		return err
	}
	re = s.word(err, reading)
	s.log.Warn("git remote failed", "remote", s.r.display, "error", s.r.scrub(err.Error()), "reported", re.msg)
	if re.final {
		return jobs.Permanent(re)
	}
	return re
}

// word chooses the words for err.
func (s *session) word(err error, reading bool) *remoteError {
	var refused *netpolicy.RefusedError
	var dns *net.DNSError
	status := httpStatus(err)
	switch {
	case errors.As(err, &refused):
		return &remoteError{final: true, msg: sayNotAllowed + ": the repository's URL leads (by its host, the addresses its host name resolves to, or a redirect) " +
			"to a loopback, private, link-local or other address inside the server's network, where Quire does not connect (an operator may allow it with --git-fetch-private)"}
	case errors.Is(err, transport.ErrAuthenticationRequired) && s.auth == nil:
		return &remoteError{final: true, msg: sayAuth + ": the repository's server asks for credentials; give them in the URL (https://user:token@host/...)"}
	case errors.Is(err, transport.ErrAuthenticationRequired), errors.Is(err, transport.ErrAuthorizationFailed), errors.Is(err, transport.ErrInvalidAuthMethod):
		return &remoteError{final: true, msg: sayAuth + ": the repository's server did not accept the credentials of the URL"}
	case errors.Is(err, transport.ErrRepositoryNotFound):
		return &remoteError{final: true, msg: sayNotGit + ": the server has no repository at this URL"}
	case errors.Is(err, context.Canceled):
		// The job was stopped (cancelled, or the process shuts down): the
		// attempt runs again later, if at all.
		return &remoteError{msg: "the attempt was stopped before the repository's server answered"}
	case timedOut(err):
		return &remoteError{msg: sayTimeout + ": the repository's server did not answer in time"}
	case status >= 500 || status == http.StatusRequestTimeout || status == http.StatusTooManyRequests:
		return &remoteError{msg: fmt.Sprintf("%s: the repository's server is unavailable (it answered %d %s)", sayConnect, status, http.StatusText(status))}
	case status != 0:
		return &remoteError{final: true, msg: fmt.Sprintf("%s: the server at this URL answered %d %s where a Git server answers", sayNotGit, status, http.StatusText(status))}
	case errors.As(err, &dns):
		return &remoteError{msg: fmt.Sprintf("%s: the host name %s could not be resolved", sayConnect, dns.Name)}
	case badTLS(err):
		return &remoteError{final: true, msg: sayConnect + ": the repository's server did not prove its identity (its TLS certificate is not trusted or not valid for this host)"}
	case reading:
		return &remoteError{msg: sayConnect + ": the repository's server broke off sending the repository"}
	case errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH),
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.As(err, new(*net.OpError)):
		return &remoteError{msg: sayConnect + " to the repository's server"}
	}
	// What is left is an answer that is not Git's protocol: an HTTP
	// server of something else (invalid pkt-len), a redirect go-git does
	// not follow, and the like.
	return &remoteError{final: true, msg: sayNotGit + ": the server at this URL does not answer as a Git server"}
}

// httpStatus is the status of an unexpected HTTP answer go-git reports,
// or 0. go-git's UnexpectedError does not unwrap.
func httpStatus(err error) int {
	var ue *plumbing.UnexpectedError
	if errors.As(err, &ue) {
		err = ue.Err
	}
	var he *githttp.Err
	if errors.As(err, &he) && he.Response != nil {
		return he.Response.StatusCode
	}
	return 0
}

func timedOut(err error) bool {
	var t interface{ Timeout() bool }
	return errors.Is(err, context.DeadlineExceeded) || errors.Is(err, os.ErrDeadlineExceeded) || (errors.As(err, &t) && t.Timeout())
}

func badTLS(err error) bool {
	var (
		ua x509.UnknownAuthorityError
		he x509.HostnameError
		ci x509.CertificateInvalidError
		cv *tls.CertificateVerificationError
		rh tls.RecordHeaderError
	)
	return errors.As(err, &ua) || errors.As(err, &he) || errors.As(err, &ci) || errors.As(err, &cv) || errors.As(err, &rh)
}

// remoteText is a message of a Git server (a push's report) made fit to
// show: one line of printable characters, at most 200 of them.
func remoteText(msg string) string {
	msg = strings.Map(func(r rune) rune {
		if !unicode.IsPrint(r) {
			return ' '
		}
		return r
	}, msg)
	if r := []rune(msg); len(r) > 200 {
		msg = string(r[:200]) + "…"
	}
	return strings.TrimSpace(msg)
}
