package main

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// Build stamps, set by the release build:
//
//	go build -ldflags "-X main.version=1.2.0 -X main.commit=abc123 -X main.date=2026-01-02T03:04:05Z" ./cmd/quire
//
// A plain "go build" from a checkout leaves commit and date empty; then the
// VCS information the Go toolchain embeds takes their place.
var version = "dev"

var commit, date string

// versionLine is what "quire version" prints: the version, the commit and
// build time, and the Go toolchain that built the binary.
func versionLine() string {
	c, d := commit, date
	if c == "" || d == "" {
		vc, vd := vcsStamp()
		if c == "" {
			c = vc
		}
		if d == "" {
			d = vd
		}
	}
	if c == "" {
		c = "unknown"
	}
	if d == "" {
		d = "unknown"
	}
	return fmt.Sprintf("quire %s (commit %s, built %s) %s %s/%s",
		version, c, d, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

// vcsStamp returns the revision and commit time the Go toolchain recorded
// when it built from a VCS checkout, with "-dirty" when the tree had
// uncommitted changes. Both are empty for test binaries and "go run".
func vcsStamp() (revision, when string) {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "", ""
	}
	modified := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if revision != "" && modified {
		revision += "-dirty"
	}
	return revision, when
}

// printVersion implements "quire version" and "quire --version".
func (e *env) printVersion(args []string) int {
	fs := e.newFlagSet("quire version")
	if code, done := e.parse(fs, args); done {
		return code
	}
	fmt.Fprintln(e.stdout, versionLine())
	return exitOK
}
