package ratelimit

import (
	"context"
	"net"
	"net/netip"
	"sync"
)

// Requests without a valid token have no user to charge: they are charged
// to the client's address, in the anonymous bucket, 1 per request, so that
// guessing tokens or flooding the token-less routes costs a budget like any
// other traffic. The counters are the same rows as the users' (the
// principal is the address, written "ip:..." so that it never equals a user
// id), so replicas share each address's budget.

// Anonymous is the budget of requests without a valid token, per client
// address.
const Anonymous Bucket = "anonymous"

// DefaultAnonymousLimit is the requests without a valid token each client
// address may send per window. It is well above what signing in and reading
// public specifications take from one office behind one address, and far
// below a flood.
const DefaultAnonymousLimit = 1000

// maxRefusedAddresses bounds the addresses a process remembers as refused;
// past it, refusals are asked of the database until the window changes.
const maxRefusedAddresses = 100_000

// refusals remembers the addresses the database refused in a window. A
// counter only grows within its window, so an address refused once stays
// refused until the window ends, and further requests from it are refused
// without a statement: a flood from one address costs the database one
// statement per process and window once it is over budget.
type refusals struct {
	mu sync.Mutex
	m  map[string]int64 // address → start of the window it was refused in
}

func (r *refusals) refused(addr string, window int64) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	w, ok := r.m[addr]
	return ok && w == window
}

func (r *refusals) add(addr string, window int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.m == nil {
		r.m = map[string]int64{}
	}
	if len(r.m) >= maxRefusedAddresses {
		for a, w := range r.m {
			if w != window {
				delete(r.m, a)
			}
		}
		if len(r.m) >= maxRefusedAddresses {
			return
		}
	}
	r.m[addr] = window
}

// TakeAnonymous charges one request without a valid token to addr (as
// Address gives it) in the anonymous bucket. The decision's Core is that
// bucket (Limit 0 when it is off), so its headers describe it. A refused
// request spends nothing.
func (l *Limiter) TakeAnonymous(ctx context.Context, addr string) (Decision, error) {
	limit := l.cfg.AnonymousLimit
	if limit <= 0 {
		return Decision{Allowed: true}, nil
	}
	start, reset := l.windowAt(l.cfg.Now())
	it := item{bucket: Anonymous, n: 1, limit: limit}
	full := Usage{Bucket: Anonymous, Limit: limit, Used: limit, Reset: reset}
	if l.refusals.refused(addr, start) {
		return Decision{Core: full, Refused: &full, Cost: 1}, nil
	}
	counts, err := l.charge(ctx, addr, start, []item{it})
	if err != nil {
		return Decision{}, err
	}
	if counts[0] < 0 {
		l.refusals.add(addr, start)
		return Decision{Core: full, Refused: &full, Cost: 1}, nil
	}
	return Decision{Allowed: true, Core: Usage{Bucket: Anonymous, Limit: limit, Used: counts[0], Reset: reset}}, nil
}

// Address is the principal a request from remoteAddr (an http.Request's
// RemoteAddr, host and port) is charged to: "ip:" and its IPv4 address, or
// for IPv6 the /64 network holding it, since one subscriber usually holds a
// whole /64 and could otherwise change address with every request. A
// remote address that is not an IP address (a Unix socket) is charged as
// it is.
func Address(remoteAddr string) string {
	host := remoteAddr
	if h, _, err := net.SplitHostPort(remoteAddr); err == nil {
		host = h
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		const max = 100 // the counter's key stays small whatever the listener reports
		if len(remoteAddr) > max {
			remoteAddr = remoteAddr[:max]
		}
		return "addr:" + remoteAddr
	}
	ip = ip.Unmap().WithZone("")
	if ip.Is4() {
		return "ip:" + ip.String()
	}
	p, _ := ip.Prefix(64)
	return "ip:" + p.String()
}
