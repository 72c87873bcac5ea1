#!/usr/bin/env bash
# Measures a real `quire serve` process over a throwaway PostgreSQL cluster
# (cmd/quirebench): `scripts/bench.sh` runs the workloads, `scripts/bench.sh
# --peer` compares graphql-site with PostGraphile and a pgbench ceiling
# (Node and PostGraphile are downloaded once into ~/.cache/quire-bench, or
# $BENCH_CACHE_DIR). Extra arguments go to quirebench. BENCH_DURATION
# (default 5s; at least 10s with --peer) is the length of each load run,
# BENCH_ROUNDS (default 3, at least 3) the rounds of --peer. Everything
# runs on loopback; every run is bounded (quirebench --timeout, 40 minutes).
set -euo pipefail

cd "$(dirname "$0")/.."
GO=${GO:-go}

bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
timeout 600 "$GO" build -o "$bin/quire" ./cmd/quire
timeout 600 "$GO" build -o "$bin/quirebench" ./cmd/quirebench
timeout 3000 "$bin/quirebench" --quire "$bin/quire" "$@"
