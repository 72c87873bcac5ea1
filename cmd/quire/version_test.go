package main

import (
	"runtime"
	"strings"
	"testing"
)

func TestVersion(t *testing.T) {
	old := [3]string{version, commit, date}
	t.Cleanup(func() { version, commit, date = old[0], old[1], old[2] })
	version, commit, date = "1.2.3", "abc123", "2026-01-02T03:04:05Z"
	for _, args := range [][]string{{"version"}, {"--version"}} {
		code, stdout, stderr := quire(t, args...)
		if code != 0 {
			t.Fatalf("quire %v: exit %d, stderr %s", args, code, stderr)
		}
		want := "quire 1.2.3 (commit abc123, built 2026-01-02T03:04:05Z) " + runtime.Version()
		if !strings.HasPrefix(stdout, want) {
			t.Errorf("quire %v printed %q, want prefix %q", args, stdout, want)
		}
	}
}

func TestVersionUnstamped(t *testing.T) {
	old := [3]string{version, commit, date}
	t.Cleanup(func() { version, commit, date = old[0], old[1], old[2] })
	version, commit, date = "dev", "", ""
	code, stdout, _ := quire(t, "version")
	if code != 0 || !strings.HasPrefix(stdout, "quire dev (commit ") || !strings.Contains(stdout, runtime.Version()) {
		t.Fatalf("quire version: exit %d, %q", code, stdout)
	}
	// A test binary has no VCS stamp, so both fall back to "unknown".
	if !strings.Contains(stdout, "(commit unknown, built unknown)") {
		t.Errorf("unstamped test binary printed %q", stdout)
	}
}
