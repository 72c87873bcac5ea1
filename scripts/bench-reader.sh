#!/usr/bin/env bash
# Benchmarks page views of a published site: quire serve, built as released
# (-trimpath -ldflags "-s -w"), against Go's http.FileServer serving a
# crawl of the same pages, on SQLite and on a throwaway PostgreSQL cluster
# (cmd/readerbench), and counts the SQL statements of a page view on sites
# of 10 to 10,000 pages. Prints markdown tables; fails when the statements
# per page view differ between site sizes.
#
#   scripts/bench-reader.sh [extra cmd/readerbench flags, e.g. --duration 5s --rounds 5]
#
# Everything runs on loopback; every run is bounded (--timeout).
set -euo pipefail

cd "$(dirname "$0")/.."
GO=${GO:-go}

bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
timeout 600 "$GO" build -trimpath -ldflags "-s -w" -o "$bin/quire" ./cmd/quire
timeout 600 "$GO" build -o "$bin/readerbench" ./cmd/readerbench
"$bin/readerbench" --quire "$bin/quire" "$@"
