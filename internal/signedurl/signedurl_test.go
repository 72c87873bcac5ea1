package signedurl

import (
	"errors"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

type fakeClock struct{ t time.Time }

func (c *fakeClock) Now() time.Time { return c.t }

func newTestSigner(key string) (*Signer, *fakeClock) {
	clk := &fakeClock{t: time.Unix(1_700_000_000, 0)}
	s := NewSigner([]byte(key))
	s.Now = clk.Now
	return s, clk
}

func TestSignFormat(t *testing.T) {
	s, clk := newTestSigner("secret-key-0123456789abcdef")
	link := s.Sign("/files/report.pdf", time.Hour)
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	if u.Path != "/files/report.pdf" {
		t.Errorf("path = %q", u.Path)
	}
	if !strings.HasPrefix(link, "/files/report.pdf?expires=") || !strings.Contains(link, "&sig=") {
		t.Errorf("unexpected link format %q", link)
	}
	q := u.Query()
	if got, want := q.Get("expires"), "1700003600"; got != want {
		t.Errorf("expires = %q, want %q (now %v)", got, want, clk.t)
	}
	if sig := q.Get("sig"); len(sig) != 43 || strings.ContainsAny(sig, "+/=") {
		t.Errorf("sig %q is not unpadded base64url of 32 bytes", sig)
	}
}

func TestValid(t *testing.T) {
	s, clk := newTestSigner("k1")
	for _, p := range []string{
		"/files/report.pdf",
		"/exports/site 1/über.pdf", // unescaped as given
		"/exports/site%201/%C3%BCber.pdf",
		"/download?id=42&format=pdf",
		"/",
	} {
		link := s.Sign(p, 10*time.Minute)
		if err := s.Verify(link); err != nil {
			t.Errorf("Verify(%q) = %v", link, err)
		}
		// Absolute URLs work too.
		if err := s.Verify("https://docs.example.com" + link); err != nil {
			t.Errorf("Verify(absolute %q) = %v", link, err)
		}
	}
	// Valid right up to (and including) the expiry second.
	link := s.Sign("/a", time.Minute)
	clk.t = clk.t.Add(time.Minute)
	if err := s.Verify(link); err != nil {
		t.Errorf("at expiry: %v", err)
	}
}

func TestReescapedPathStillVerifies(t *testing.T) {
	s, _ := newTestSigner("k1")
	link := s.Sign("/exports/site 1/über.pdf", time.Hour)
	// What a browser would send, and what net/http gives the handler.
	escaped := strings.Replace(link, "/exports/site 1/über.pdf", "/exports/site%201/%C3%BCber.pdf", 1)
	req := httptest.NewRequest("GET", escaped, nil)
	if err := s.Verify(req.URL.RequestURI()); err != nil {
		t.Fatalf("Verify(%q) = %v", req.URL.RequestURI(), err)
	}
}

func TestFailures(t *testing.T) {
	s, clk := newTestSigner("k1")
	link := s.Sign("/files/report.pdf", time.Hour)
	qlink := s.Sign("/download?id=42", time.Hour)
	u, _ := url.Parse(link)
	exp, sig := u.Query().Get("expires"), u.Query().Get("sig")

	other, _ := newTestSigner("k2")

	tests := []struct {
		name string
		s    *Signer
		link string
		want error
	}{
		{"tampered path", s, strings.Replace(link, "report", "secret", 1), ErrBadSignature},
		{"path traversal", s, strings.Replace(link, "/files/", "/files/../", 1), ErrBadSignature},
		{"tampered expiry", s, strings.Replace(link, "expires="+exp, "expires=9999999999", 1), ErrBadSignature},
		{"expiry leading zero", s, strings.Replace(link, "expires="+exp, "expires=0"+exp, 1), ErrMalformed},
		{"expiry not a number", s, strings.Replace(link, "expires="+exp, "expires=soon", 1), ErrMalformed},
		{"tampered signature", s, strings.Replace(link, "sig="+sig, "sig="+flip(sig), 1), ErrBadSignature},
		{"truncated signature", s, strings.Replace(link, "sig="+sig, "sig="+sig[:20], 1), ErrBadSignature},
		{"signature not base64", s, strings.Replace(link, "sig="+sig, "sig=!!!", 1), ErrBadSignature},
		{"wrong key", other, link, ErrBadSignature},
		{"tampered extra param", s, strings.Replace(qlink, "id=42", "id=43", 1), ErrBadSignature},
		{"added param", s, qlink + "&admin=1", ErrBadSignature},
		{"missing sig", s, "/files/report.pdf?expires=" + exp, ErrMissingParams},
		{"missing expires", s, "/files/report.pdf?sig=" + sig, ErrMissingParams},
		{"empty sig", s, "/files/report.pdf?expires=" + exp + "&sig=", ErrMissingParams},
		{"no query", s, "/files/report.pdf", ErrMissingParams},
		{"duplicate expires", s, link + "&expires=9999999999", ErrMalformed},
		{"duplicate sig", s, link + "&sig=" + sig, ErrMalformed},
		{"empty key", &Signer{}, link, ErrNoKey},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.s.Verify(tt.link)
			if !errors.Is(err, tt.want) {
				t.Errorf("Verify(%q) = %v, want %v", tt.link, err, tt.want)
			}
		})
	}

	t.Run("expired", func(t *testing.T) {
		clk.t = clk.t.Add(time.Hour + time.Second)
		if err := s.Verify(link); !errors.Is(err, ErrExpired) {
			t.Errorf("Verify after expiry = %v, want ErrExpired", err)
		}
	})
	t.Run("negative ttl", func(t *testing.T) {
		l := s.Sign("/x", -time.Second)
		if err := s.Verify(l); !errors.Is(err, ErrExpired) {
			t.Errorf("Verify = %v, want ErrExpired", err)
		}
	})
}

func TestNewSignerCopiesKey(t *testing.T) {
	key := []byte("original")
	s := NewSigner(key)
	link := s.Sign("/a", time.Hour)
	copy(key, "mutated!")
	if err := s.Verify(link); err != nil {
		t.Fatalf("mutating the caller's key slice affected the signer: %v", err)
	}
}

func TestNilNowUsesSystemClock(t *testing.T) {
	s := &Signer{Key: []byte("k")}
	if err := s.Verify(s.Sign("/a", time.Minute)); err != nil {
		t.Fatal(err)
	}
}

// flip changes the first character of a base64url string to a different
// valid character.
func flip(s string) string {
	c := byte('A')
	if s[0] == 'A' {
		c = 'B'
	}
	return string(c) + s[1:]
}
