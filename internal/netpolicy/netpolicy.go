// Package netpolicy decides which network addresses Quire connects to when
// a user, not the operator, chose the URL: OpenAPI sources and the files
// they reference, Git remotes. By default it refuses loopback, private,
// link-local and the other addresses that reach inside the server's network
// (a user could otherwise read internal services, or scan their ports).
//
// Two checks work together. When a URL is written, InsideHost tells a host
// that names such an address without a lookup, and OddHost numeric
// spellings no URL needs (2130706433, 0x7f000001, 127.1, 0177.0.0.1,
// ::ffff:127.0.0.1), which some resolvers read as addresses. When a
// connection is made, the Dialer's Control refuses the address actually
// dialled, so a name that resolves to an inside address (DNS rebinding
// included) and a redirect to one are refused too.
package netpolicy

import (
	"fmt"
	"net"
	"net/netip"
	"strings"
	"syscall"
	"time"

	"golang.org/x/net/idna"
)

// RefusedError is the error of a connection the policy refused. It names
// the address dialled, which may be what a host name resolved to: callers
// decide whether to show it.
type RefusedError struct{ Addr netip.Addr }

func (e *RefusedError) Error() string {
	return fmt.Sprintf("the address %s is loopback, private, link-local or otherwise inside the server's network", e.Addr)
}

// Control is a net.Dialer's Control that refuses inside addresses. It
// runs for every address the dialer tries, after name resolution.
func Control(network, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return err
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return err
	}
	if Inside(a) {
		return &RefusedError{Addr: a}
	}
	return nil
}

// Dialer returns a dialer bounded by timeout that refuses inside
// addresses unless allowPrivate.
func Dialer(allowPrivate bool, timeout time.Duration) *net.Dialer {
	d := &net.Dialer{Timeout: timeout, KeepAlive: 30 * time.Second}
	if !allowPrivate {
		d.Control = Control
	}
	return d
}

// sharedRanges are addresses that are neither private nor public in
// netip's sense but never reach a public server.
var sharedRanges = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),       // "this network"
	netip.MustParsePrefix("100.64.0.0/10"),   // carrier-grade NAT
	netip.MustParsePrefix("192.0.0.0/24"),    // IETF protocol assignments
	netip.MustParsePrefix("198.18.0.0/15"),   // benchmarking
	netip.MustParsePrefix("240.0.0.0/4"),     // reserved, broadcast
	netip.MustParsePrefix("::/96"),           // IPv4-compatible (deprecated), :: and ::1 among them
	netip.MustParsePrefix("64:ff9b:1::/48"),  // local-use NAT64
	netip.MustParsePrefix("2001:db8::/32"),   // documentation
	netip.MustParsePrefix("fec0::/10"),       // site-local (deprecated)
	netip.MustParsePrefix("100::/64"),        // discard
	netip.MustParsePrefix("2002::/16"),       // 6to4, which may wrap any IPv4 address
	netip.MustParsePrefix("192.88.99.0/24"),  // 6to4 relays
	netip.MustParsePrefix("203.0.113.0/24"),  // documentation
	netip.MustParsePrefix("198.51.100.0/24"), // documentation
	netip.MustParsePrefix("192.0.2.0/24"),    // documentation
}

// nat64 is the well-known NAT64 prefix: its addresses reach the IPv4
// address in their last 32 bits, inside or not.
var nat64 = netip.MustParsePrefix("64:ff9b::/96")

// Inside reports an address Quire does not connect to by default.
func Inside(a netip.Addr) bool {
	a = a.Unmap()
	if a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() ||
		a.IsInterfaceLocalMulticast() || a.IsMulticast() || a.IsUnspecified() || !a.IsValid() {
		return true
	}
	if nat64.Contains(a) {
		b := a.As16()
		return Inside(netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]}))
	}
	for _, p := range sharedRanges {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// InsideHost reports a URL host (as url.URL.Hostname gives it) that names
// an inside address without a lookup: an IP literal inside, or localhost.
func InsideHost(host string) bool {
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	a, err := netip.ParseAddr(strings.Trim(h, "[]"))
	return err == nil && Inside(a)
}

// OddHostAdvice is what a refusal of an odd host spelling may tell the
// user to write instead.
const OddHostAdvice = "write an IPv4 address as four decimal numbers (a.b.c.d), and an IPv6 address without an IPv4 address in it"

// compatible holds the deprecated IPv4-compatible IPv6 addresses.
var compatible = netip.MustParsePrefix("::/96")

// OddHost reports a URL host spelled in a way no URL needs, whatever the
// policy on inside addresses: a host whose last label is a number (the
// WHATWG URL rules read it as an IPv4 address) but that is not four
// decimal numbers (2130706433, 0x7f000001, 127.1, 0177.0.0.1, 0,
// 127.0.0.1.), an IPv4 address written as IPv6 (::ffff:127.0.0.1,
// ::127.0.0.1), or the unspecified address (0.0.0.0, ::), which is no
// destination. Full-width digits and other characters that host name
// mapping turns into ASCII are read as that ASCII.
func OddHost(host string) bool {
	h := strings.ToLower(host)
	mapped := false
	if strings.ContainsFunc(h, func(r rune) bool { return r > 0x7f }) {
		if m, err := idna.Lookup.ToASCII(h); err == nil {
			h, mapped = m, true
		}
	}
	if a, err := netip.ParseAddr(strings.Trim(h, "[]")); err == nil {
		a = a.WithZone("")
		if mapped || a.IsUnspecified() || a.Is4In6() {
			return true
		}
		// ::/96 holds the deprecated IPv4-compatible addresses; ::1 is
		// the plain loopback.
		return a.Is6() && a != netip.IPv6Loopback() && compatible.Contains(a)
	}
	labels := strings.Split(h, ".")
	last := labels[len(labels)-1]
	if last == "" && len(labels) > 1 {
		last = labels[len(labels)-2]
	}
	return numeric(last)
}

// numeric reports a label the WHATWG URL parser reads as a number:
// decimal digits, or 0x followed by hexadecimal digits (or nothing).
func numeric(label string) bool {
	if label == "" {
		return false
	}
	digits := "0123456789"
	if rest, ok := strings.CutPrefix(label, "0x"); ok {
		label, digits = rest, "0123456789abcdef"
		if label == "" {
			return true
		}
	}
	for _, r := range label {
		if !strings.ContainsRune(digits, r) {
			return false
		}
	}
	return true
}
