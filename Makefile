# Quire: a documentation platform API (GraphQL + /v1 REST).

GO ?= go
DATABASE_URL ?= sqlite:data/quire.db
ADDR ?= localhost:8080

.PHONY: run build size test generate check-generate migration vet bench bench-peer bench-go bench-sites interop test-relay test-browser

## run: build and serve on $(ADDR) with the embedded SQLite database in ./data
run: build
	./bin/quire serve --addr $(ADDR) --database-url $(DATABASE_URL)

## build: compile the quire binary into ./bin (-trimpath: no build machine paths in it)
build:
	$(GO) build -trimpath -o bin/quire ./cmd/quire

## size: build quire as released (-trimpath -ldflags "-s -w") and fail when it is over SIZE_LIMIT_MB (60, in 10^6 bytes)
SIZE_LIMIT_MB ?= 60
size:
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	$(GO) build -trimpath -ldflags "-s -w" -o "$$tmp/quire" ./cmd/quire && \
	bytes=$$(wc -c <"$$tmp/quire") && \
	echo "quire, stripped: $$bytes bytes (limit $(SIZE_LIMIT_MB) MB)" && \
	if [ "$$bytes" -gt $$(($(SIZE_LIMIT_MB) * 1000000)) ]; then echo "quire is over $(SIZE_LIMIT_MB) MB" >&2; exit 1; fi

## release: static binaries (no cgo, -trimpath, stripped, stamped with VERSION, COMMIT and DATE) for linux/amd64, linux/arm64 and darwin/arm64 into dist/quire-<os>-<arch>, and dist/SHA256SUMS
# VERSION: git describe; COMMIT: the commit; DATE: RFC 3339 UTC, now or
# SOURCE_DATE_EPOCH when set. Each is evaluated where a recipe uses it.
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT ?= $(shell git rev-parse HEAD 2>/dev/null || echo unknown)
DATE ?= $(shell if [ -n "$$SOURCE_DATE_EPOCH" ]; then date -u -d "@$$SOURCE_DATE_EPOCH" +%Y-%m-%dT%H:%M:%SZ 2>/dev/null || date -u -r "$$SOURCE_DATE_EPOCH" +%Y-%m-%dT%H:%M:%SZ; else date -u +%Y-%m-%dT%H:%M:%SZ; fi)
STAMPS = VERSION='$(VERSION)' COMMIT='$(COMMIT)' DATE='$(DATE)' GO='$(GO)'
.PHONY: release image test-image
release:
	$(STAMPS) scripts/release.sh

## release-host: the release binary of this machine's OS and architecture alone, into dist/quire-<os>-<arch> (no SHA256SUMS)
.PHONY: release-host
release-host:
	$(STAMPS) scripts/release.sh --no-sums "$$($(GO) env GOOS)/$$($(GO) env GOARCH)"

## image: the container image quire:$(VERSION) (Containerfile: FROM scratch, the host's linux release binary, CA certificates, user 65532, /data), built with podman on the vfs storage driver
PODMAN ?= podman --storage-driver vfs
image:
	$(STAMPS) PODMAN='$(PODMAN)' IMAGE='quire:$(VERSION)' scripts/image.sh

## test-image: build the image, check its metadata, export its files, and run its /quire on the host: version, then serve on a free loopback port until /readyz answers 200
test-image:
	$(STAMPS) PODMAN='$(PODMAN)' IMAGE='quire:$(VERSION)' scripts/image-test.sh

## test: the whole suite, on SQLite and on a throwaway PostgreSQL cluster (after vet; go test's own vet pass is off, since vet just ran); TEST_P packages at a time (default 2, one per core; the statement tests measure round trips, which a busier machine blurs)
TEST_P ?= 2
test: vet
	$(GO) test -count=1 -vet=off -p $(TEST_P) -timeout 20m ./...

## vet: static checks
vet:
	$(GO) vet ./...

## staticcheck: staticcheck v0.7.0 over every package (fetched by the go command; not part of the binary)
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.7.0
.PHONY: staticcheck
staticcheck:
	$(GO) run $(STATICCHECK) ./...

## staticcheck-build: compile staticcheck alone (go run caches the binary, so make staticcheck then goes straight to the analysis)
.PHONY: staticcheck-build
staticcheck-build:
	$(GO) run $(STATICCHECK) -version

## generate: regenerate ent and gqlgen code (commit the result)
generate:
	$(GO) generate ./ent
	$(GO) run ./cmd/gqlgen

## check-generate: fail when generated code is out of date
check-generate: generate
	git diff --exit-code -- ent graph go.mod go.sum

## migration: write the next schema migration from ent/schema, for SQLite and PostgreSQL (NAME=add_something; needs PostgreSQL's server binaries, as make test); commit the files
migration:
	@test -n "$(NAME)" || { echo 'usage: make migration NAME=add_something' >&2; exit 2; }
	$(GO) run ./cmd/migrations -name $(NAME)

## fuzz: run every Go fuzz target of FUZZ_PKGS (default ./...) for FUZZTIME each (default 30s); failing inputs land in the package's testdata/fuzz
FUZZTIME ?= 30s
FUZZ_PKGS ?= ./...
.PHONY: fuzz
fuzz:
	FUZZTIME=$(FUZZTIME) GO=$(GO) scripts/fuzz.sh $(FUZZ_PKGS)

## bench: a real quire serve over a throwaway PostgreSQL: graphql-site, rest-site, space-read, search, cr-create, cr-merge; req/s, p50/p99, SQL statements/request, quire's RSS, ratio to a one-statement handler (BENCH_DURATION per run, default 5s)
BENCH_DURATION ?= 5s
BENCH_ROUNDS ?= 2
bench:
	BENCH_DURATION=$(BENCH_DURATION) GO=$(GO) scripts/bench.sh $(BENCH_FLAGS)

## bench-peer: graphql-site of quire against PostGraphile 5.1.5 (production mode, Node 22 downloaded into ~/.cache/quire-bench) and a pgbench ceiling over the same rows; BENCH_PEER_DURATION per run (default 10s, at least 10s), BENCH_PEER_ROUNDS rounds (default 3, at least 3), order alternating
bench-peer:
	BENCH_DURATION=$(or $(BENCH_PEER_DURATION),10s) BENCH_ROUNDS=$(or $(BENCH_PEER_ROUNDS),3) GO=$(GO) scripts/bench.sh --peer $(BENCH_FLAGS)

## bench-go: Go benchmarks
bench-go:
	$(GO) test -run '^$$' -bench . -benchmem ./...

## interop: drive the /v1 API with the official @gitbook/api 0.146.0 client (Node 20 + npm)
interop:
	bash interop/run.sh

## test-relay: compile Relay fragments (a @refetchable per Node type, a @connection per connection) against the schema a running Quire publishes, with relay-compiler 21.0.1 (Node 20 + npm), and refetch each Node type through node
test-relay:
	bash web/relay/run.sh

# The Node checks (interop, test-relay, test-browser, test-browser-reader)
# build quire themselves unless QUIRE_BIN names a binary (absolute, or from
# the repository's root), and run npm ci unless QUIRE_NPM_READY=1 says the
# caller did (.ci/run does both once, up front).

## test-browser: open GraphiQL in headless Chromium against a real server, run a query, save a screenshot; then test-browser-reader
test-browser: test-browser-reader
	cd web/graphiql && { [ "$$QUIRE_NPM_READY" = 1 ] || npm ci --no-audit --no-fund; } && npm test

## test-browser-reader: a published site in headless Chromium (navigation, search, theme, share link, no JavaScript, 390px screen), axe-core, Lighthouse (accessibility and performance >= 95) and linkinator against a real server
.PHONY: test-browser-reader
test-browser-reader:
	cd web/reader && { [ "$$QUIRE_NPM_READY" = 1 ] || npm ci --no-audit --no-fund; } && npm test

## bench-sites: published site profile, REST and GraphQL against a one-statement SQL baseline, on SQLite and a throwaway PostgreSQL (loopback, bounded)
bench-sites:
	scripts/bench-sites.sh $(BENCH_SITES_FLAGS)

## bench-reader: page views of a published 500-page site, quire serve (as released) against a static file server over a crawl of the same pages, at 1, 10 and 50 connections on SQLite and a throwaway PostgreSQL; fails when SQL statements per page view differ between sites of 10 to 10,000 pages
.PHONY: bench-reader
bench-reader:
	scripts/bench-reader.sh $(BENCH_READER_FLAGS)

## soak: a real quire serve over a throwaway PostgreSQL under a steady mix of reads and writes for SOAK_DURATION (10m) at SOAK_RATE requests/s (100) on SOAK_WORKERS (32); fails on any error, a missing write, or growth of memory or goroutines
.PHONY: soak
soak:
	$(GO) run ./cmd/quiresoak
