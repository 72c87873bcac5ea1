#!/usr/bin/env bash
# Benchmarks the published profile of a docs site (REST, GraphQL and a
# one-statement SQL baseline) on SQLite and on a throwaway PostgreSQL
# cluster, and prints one markdown table per database.
#
#   scripts/bench-sites.sh [extra cmd/sitebench flags, e.g. --duration 10s --rounds 3]
#
# BENCH_NICE=-10 runs the benchmark (and the load generator and PostgreSQL it
# starts) at that scheduling priority, to keep other work on a shared
# machine from skewing it (negative values need root).
#
# Installs wrk (else hey) from the distribution's packages when neither is
# installed and we are root or have password-less sudo; otherwise the tool
# falls back to its built-in load generator. Everything runs on loopback and
# every run is bounded (--duration per run, --timeout overall).
set -euo pipefail

cd "$(dirname "$0")/.."
GO=${GO:-go}

have() { command -v "$1" >/dev/null 2>&1; }

install_loadgen() {
	have wrk && return 0
	have hey && return 0
	local sudo=()
	if [ "$(id -u)" -ne 0 ]; then
		if have sudo && sudo -n true 2>/dev/null; then
			sudo=(sudo -n)
		else
			echo "bench-sites: wrk/hey not installed and no root; using the built-in load generator" >&2
			return 0
		fi
	fi
	if ! have apt-get; then
		echo "bench-sites: no apt-get; using the built-in load generator" >&2
		return 0
	fi
	echo "bench-sites: installing wrk" >&2
	"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive timeout 300 apt-get update -qq >/dev/null || true
	for pkg in wrk hey; do
		if [ -n "$(apt-cache policy "$pkg" 2>/dev/null | awk '/Candidate:/ && $2 != "(none)" {print $2}')" ]; then
			"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive timeout 300 apt-get install -y -qq "$pkg" >/dev/null && return 0
		fi
	done
	echo "bench-sites: could not install wrk or hey; using the built-in load generator" >&2
}

install_loadgen

bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
"$GO" build -o "$bin/sitebench" ./cmd/sitebench

run=("$bin/sitebench")
if [ -n "${BENCH_NICE:-}" ]; then
	run=(nice -n "$BENCH_NICE" "$bin/sitebench")
fi

status=0
rev=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then rev="$rev + uncommitted changes"; fi
echo "# Published site profile benchmark ($(date -u +%Y-%m-%dT%H:%MZ), $rev)"
echo
"${run[@]}" "$@" || status=$?
"${run[@]}" --postgres-throwaway "$@" || status=$?
exit $status
