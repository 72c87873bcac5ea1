package netpolicy

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"testing"
	"time"
)

func TestInsideHost(t *testing.T) {
	for _, h := range []string{"127.0.0.1", "localhost", "LOCALHOST.", "db.localhost", "10.1.2.3", "169.254.169.254", "::1", "192.168.0.1",
		"fd00::1", "0.0.0.0", "100.64.0.1", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "::127.0.0.1", "64:ff9b::a00:1", "fe80::1%eth0", "2002:7f00:1::"} {
		if !InsideHost(h) {
			t.Errorf("%s is not taken for inside", h)
		}
	}
	for _, h := range []string{"example.com", "93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946", "64:ff9b::5db8:d822", "localhost.example.com"} {
		if InsideHost(h) {
			t.Errorf("%s is taken for inside", h)
		}
	}
}

// Numeric spellings that resolvers read as addresses are odd whatever
// the address; plain addresses and names are not.
func TestOddHost(t *testing.T) {
	for _, h := range []string{"2130706433", "0x7f000001", "0X7F000001", "127.1", "0177.0.0.1", "0", "127.0.0.1.", "1.2.3.4.5", "10.0x1",
		"::ffff:127.0.0.1", "::ffff:8.8.8.8", "::127.0.0.1", "0.0.0.0", "::", "１２７.０.０.１", "example.0x"} {
		if !OddHost(h) {
			t.Errorf("%q is not taken for odd", h)
		}
	}
	for _, h := range []string{"127.0.0.1", "10.1.2.3", "93.184.216.34", "::1", "fe80::1%eth0", "2606:2800:220:1:248:1893:25c8:1946", "64:ff9b::5db8:d822",
		"localhost", "example.com", "git.example.com.", "123.example", "0x.example", "xn--bcher-kva.example", "bücher.example"} {
		if OddHost(h) {
			t.Errorf("%q is taken for odd", h)
		}
	}
}

// The dialer refuses an inside address whatever name led to it, and
// says which address it refused.
func TestDialerRefusesInside(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	for _, addr := range []string{ln.Addr().String(), net.JoinHostPort("localhost", port)} {
		_, err := Dialer(false, 5*time.Second).DialContext(context.Background(), "tcp", addr)
		var re *RefusedError
		if !errors.As(err, &re) || !re.Addr.IsLoopback() {
			t.Errorf("%s: error %v, want a refusal", addr, err)
		}
	}
	c, err := Dialer(true, 5*time.Second).DialContext(context.Background(), "tcp", ln.Addr().String())
	if err != nil {
		t.Fatalf("allowed: %v", err)
	}
	c.Close()
	if err := Control("tcp", "93.184.216.34:443", nil); err != nil {
		t.Errorf("a public address: %v", err)
	}
	if err := Control("tcp", "[::ffff:169.254.169.254]:80", nil); !errors.As(err, new(*RefusedError)) {
		t.Errorf("a mapped link-local address: %v", err)
	}
	if !Inside(netip.Addr{}) {
		t.Error("the zero address is not taken for inside")
	}
}
