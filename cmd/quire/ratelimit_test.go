package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"quire/internal/ratelimit"
)

func TestRateLimitFlags(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
		args []string
		want ratelimit.Config
		err  string
	}{
		{name: "defaults", want: ratelimit.Config{Limit: 5000, ContentLimit: 500, AnonymousLimit: 1000, Window: time.Hour}},
		{name: "environment", env: map[string]string{"QUIRE_RATE_LIMIT": "200", "QUIRE_RATE_LIMIT_CONTENT": "0", "QUIRE_RATE_LIMIT_ANONYMOUS": "60", "QUIRE_RATE_LIMIT_WINDOW": "15m"},
			want: ratelimit.Config{Limit: 200, ContentLimit: 0, AnonymousLimit: 60, Window: 15 * time.Minute}},
		{name: "flags win", env: map[string]string{"QUIRE_RATE_LIMIT": "200", "QUIRE_RATE_LIMIT_CONTENT": "many", "QUIRE_RATE_LIMIT_ANONYMOUS": "-3"},
			args: []string{"--rate-limit", "0", "--rate-limit-content", "7", "--rate-limit-anonymous", "0"},
			want: ratelimit.Config{Limit: 0, ContentLimit: 7, AnonymousLimit: 0, Window: time.Hour}},
		{name: "bad environment", env: map[string]string{"QUIRE_RATE_LIMIT": "lots"}, err: `QUIRE_RATE_LIMIT="lots" is not a count`},
		{name: "bad anonymous environment", env: map[string]string{"QUIRE_RATE_LIMIT_ANONYMOUS": "some"}, err: `QUIRE_RATE_LIMIT_ANONYMOUS="some" is not a count`},
		{name: "negative", args: []string{"--rate-limit-content", "-1"}, err: "0 (off) or positive"},
		{name: "negative anonymous", args: []string{"--rate-limit-anonymous", "-1"}, err: "0 (off) or positive"},
		{name: "part of a second", env: map[string]string{"QUIRE_RATE_LIMIT_WINDOW": "1500ms"}, err: "whole number of seconds"},
		{name: "no window", args: []string{"--rate-limit-window", "0s"}, err: "must be positive"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := &env{stderr: &bytes.Buffer{}, getenv: func(k string) string { return tc.env[k] }}
			fs := e.newFlagSet("quire serve")
			f := e.rateLimitFlags(fs)
			if err := fs.Parse(tc.args); err != nil {
				t.Fatal(err)
			}
			got, err := f.config(fs)
			switch {
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Fatalf("error %v, want one saying %q", err, tc.err)
			case tc.err == "" && err != nil:
				t.Fatalf("error %v", err)
			case tc.err == "" && (got.Limit != tc.want.Limit || got.ContentLimit != tc.want.ContentLimit || got.AnonymousLimit != tc.want.AnonymousLimit || got.Window != tc.want.Window):
				t.Fatalf("config %+v, want %+v", got, tc.want)
			}
		})
	}
	// serve refuses them as usage errors.
	var stderr bytes.Buffer
	code := run(t.Context(), []string{"serve", "--rate-limit", "-5"}, &bytes.Buffer{}, &stderr, nil)
	if code != 2 || !strings.Contains(stderr.String(), "Usage") {
		t.Fatalf("serve --rate-limit -5: exit %d, stderr %s", code, stderr.String())
	}
}
