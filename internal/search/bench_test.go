package search_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"quire/ent"
	"quire/internal/content"
	"quire/internal/pagination"
	"quire/internal/search"
	"quire/internal/testing/testenv"
)

// Run with:
//
//	go test ./internal/search/ -run '^$' -bench . -benchtime 1x -timeout 60m
//
// Each backend gets an organization of 4 spaces of 5,000 pages (50 root
// pages with 99 children each), every page 5 sections of a heading and
// about 40 words: 100,000 sections (and 20,000 page rows), about 25 MB of
// text, written through direct edits of 500 pages, which index them as
// they go. Words follow Zipf's law (s = 1) over a vocabulary of 20,000:
// English stop words first, then the words of real documentation, then
// made-up ones; so the most frequent words of the text are in most pages
// (the 21st of the vocabulary, the first that is no stop word, in about
// 60%, the 100th in about 18%), as in real documentation.
//
// The sub-benchmarks report, for 300 queries (single words, pairs, quoted
// phrases taken from the text, and questions with stop words; their words
// drawn by the same law, so that queries of the commonest words are
// common), the p50 and p99 latency of a search (the engine's SearchSpace or
// SearchOrganization, first 20 results with their sections, as the
// resolvers call them, with fresh per-request caches); and for merges of a
// change request editing 1 and 100 pages of a 5,000-page space, the
// merge's time and the part of it spent bringing the index along, per
// page.

const (
	benchSpaces   = 4
	benchRoots    = 50
	benchChildren = 99
	benchSections = 5
	benchQueries  = 300
)

var stopWords = strings.Fields("the of and to a in is for that it with as on be by this are or from at an not can you")

// vocabulary is the generated language: stop words first (the most
// frequent), then the words of the test corpus, then made-up words.
var vocabulary = sync.OnceValue(func() []string {
	seen := map[string]bool{}
	out := slices.Clone(stopWords)
	for _, w := range out {
		seen[w] = true
	}
	add := func(w string) {
		w = strings.ToLower(strings.Trim(w, ".,:;!?()\"'`"))
		if len(w) < 3 || seen[w] || strings.ContainsAny(w, "0123456789_./-") {
			return
		}
		seen[w] = true
		out = append(out, w)
	}
	for _, p := range corpus {
		for _, w := range strings.Fields(p.title + " " + p.description + " " + p.markdown) {
			add(w)
		}
	}
	r := rand.New(rand.NewPCG(7, 7))
	syll := strings.Fields("ka lo mi ra ne to vi sa de po lu fe ri ga mo zu ba ti xo je")
	for len(out) < 20000 {
		var b strings.Builder
		for n := 2 + r.IntN(3); n > 0; n-- {
			b.WriteString(syll[r.IntN(len(syll))])
		}
		add(b.String())
	}
	return out
})

// zipf draws words by Zipf's law over the vocabulary.
type zipf struct{ z *rand.Zipf }

func newZipf(r *rand.Rand) zipf { return zipf{rand.NewZipf(r, 1.0001, 1, uint64(len(vocabulary())-1))} }

func (z zipf) word() string { return vocabulary()[z.z.Uint64()] }

// content draws a word that is no stop word.
func (z zipf) content() string {
	for {
		if w := z.word(); !slices.Contains(stopWords, w) {
			return w
		}
	}
}

// sentence is n words.
func (z zipf) sentence(n int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = z.word()
	}
	return strings.Join(w, " ") + "."
}

func benchPage(r *rand.Rand, z zipf) string {
	var b strings.Builder
	for s := 0; s < benchSections; s++ {
		h := z.content()
		fmt.Fprintf(&b, "## %s %s\n\n", strings.ToUpper(h[:1])+h[1:], z.content())
		fmt.Fprintf(&b, "%s %s\n\n", z.sentence(15+r.IntN(10)), z.sentence(15+r.IntN(10)))
	}
	return b.String()
}

// benchCorpus is an organization of generated spaces.
type benchCorpus struct {
	e      *testenv.Env
	team   *testenv.Team
	spaces []string
	pages  [][]string // page ids per space
}

func buildBenchCorpus(b *testing.B, backend string) *benchCorpus {
	return buildBenchCorpusT(b, backend)
}

func buildBenchCorpusT(b testing.TB, backend string) *benchCorpus {
	e := testenv.New(b, backend)
	c := &benchCorpus{e: e, team: e.NewTeam()}
	ctx := as(e, c.team.Admin.User)
	svc := e.Server.Resolver().Content
	r := rand.New(rand.NewPCG(1, 2))
	z := newZipf(r)
	start := time.Now()
	for s := 0; s < benchSpaces; s++ {
		id := newSpace(b, e, c.team.Admin.Token, c.team.Org.ID, fmt.Sprintf("Manual %d", s))
		c.spaces = append(c.spaces, id)
		var ops []content.Op
		for i := 0; i < benchRoots; i++ {
			md := benchPage(r, z)
			ops = append(ops, &content.CreatePage{Title: fmt.Sprintf("Chapter %d: %s", i, z.content()), Markdown: &md})
		}
		res, err := svc.EditSpace(ctx, id, ops...)
		if err != nil {
			b.Fatal(err)
		}
		pages := slices.Clone(res.IDs)
		ops = ops[:0]
		flush := func() {
			res, err := svc.EditSpace(ctx, id, ops...)
			if err != nil {
				b.Fatal(err)
			}
			pages = append(pages, res.IDs...)
			ops = ops[:0]
		}
		for i, root := range res.IDs {
			for j := 0; j < benchChildren; j++ {
				md := benchPage(r, z)
				ops = append(ops, &content.CreatePage{Title: fmt.Sprintf("%s %s %d.%d", z.content(), z.content(), i, j), Parent: root, Markdown: &md})
				if len(ops) == 500 {
					flush()
				}
			}
		}
		if len(ops) > 0 {
			flush()
		}
		c.pages = append(c.pages, pages)
	}
	var sections int
	if err := e.DB.SQL.QueryRow("SELECT count(*) FROM search_sections WHERE section > 0").Scan(&sections); err != nil {
		b.Fatal(err)
	}
	b.Logf("%s: %d spaces, %d sections written and indexed in %s", backend, benchSpaces, sections, time.Since(start).Round(time.Second))
	return c
}

// queries are what readers would type.
func benchQueryList(c *benchCorpus) []string {
	r := rand.New(rand.NewPCG(3, 4))
	z := newZipf(r)
	var out []string
	for len(out) < benchQueries {
		switch r.IntN(10) {
		case 0, 1, 2, 3:
			out = append(out, z.content())
		case 4, 5, 6:
			out = append(out, z.content()+" "+z.content())
		case 7, 8:
			// A phrase: two words of the text, as written.
			words := strings.Fields(strings.Trim(z.sentence(8), "."))
			i := r.IntN(len(words) - 1)
			out = append(out, `"`+words[i]+" "+words[i+1]+`"`)
		default:
			out = append(out, "how to "+z.content()+" the "+z.content())
		}
	}
	return out
}

func percentile(d []time.Duration, p float64) float64 {
	s := slices.Clone(d)
	slices.Sort(s)
	i := int(float64(len(s)-1) * p)
	return float64(s[i].Microseconds()) / 1000
}

// timedIndexer measures the index's part of the merges.
type timedIndexer struct {
	content.Indexer
	spent time.Duration
}

func (t *timedIndexer) Apply(ctx context.Context, tx *ent.Tx, ch search.Change) error {
	start := time.Now()
	defer func() { t.spent += time.Since(start) }()
	return t.Indexer.Apply(ctx, tx, ch)
}

func BenchmarkSearch(b *testing.B) {
	for _, backend := range testenv.Backends {
		b.Run(backend, func(b *testing.B) {
			c := buildBenchCorpus(b, backend)
			queries := benchQueryList(c)
			engine := c.e.Server.Resolver().Search
			first := 20
			run := func(b *testing.B, one func(ctx context.Context, q string) (int, error)) {
				for range b.N {
					var took []time.Duration
					found := 0
					for _, q := range queries {
						ctx := as(c.e, c.team.Reader.User)
						start := time.Now()
						n, err := one(ctx, q)
						took = append(took, time.Since(start))
						if err != nil {
							b.Fatalf("%q: %v", q, err)
						}
						if n > 0 {
							found++
						}
					}
					b.ReportMetric(percentile(took, 0.5), "p50_ms")
					b.ReportMetric(percentile(took, 0.99), "p99_ms")
					b.ReportMetric(float64(found)/float64(len(queries)), "found")
				}
			}
			b.Run("space", func(b *testing.B) {
				run(b, func(ctx context.Context, q string) (int, error) {
					p, err := engine.SearchSpace(ctx, c.spaces[0], q, pagination.Args{First: &first})
					return p.TotalCount, err
				})
			})
			b.Run("organization", func(b *testing.B) {
				run(b, func(ctx context.Context, q string) (int, error) {
					p, err := engine.SearchOrganization(ctx, c.team.Org.ID, q, pagination.Args{First: &first})
					return p.TotalCount, err
				})
			})
			for _, n := range []int{1, 100} {
				b.Run(fmt.Sprintf("merge-%d-pages", n), func(b *testing.B) {
					svc := c.e.Server.Resolver().Content
					timed := &timedIndexer{Indexer: svc.Search}
					svc.Search = timed
					defer func() { svc.Search = timed.Indexer }()
					r := rand.New(rand.NewPCG(5, uint64(n)))
					z := newZipf(r)
					ctx := as(c.e, c.team.Admin.User)
					var merged time.Duration
					for range b.N {
						cr, err := svc.CreateChangeRequest(ctx, c.spaces[1], content.CreateChangeRequest{Subject: "Edit"})
						if err != nil {
							b.Fatal(err)
						}
						var ops []content.Op
						for _, i := range r.Perm(len(c.pages[1]))[:n] {
							md := benchPage(r, z)
							ops = append(ops, &content.UpdatePage{Page: c.pages[1][i], Markdown: &md})
						}
						if _, err := svc.Edit(ctx, cr.ID, ops...); err != nil {
							b.Fatal(err)
						}
						start := time.Now()
						if res, err := svc.Merge(ctx, cr.ID); err != nil || res.Result != content.ResultMerge {
							b.Fatalf("merge: %v %v", res, err)
						}
						merged += time.Since(start)
					}
					b.ReportMetric(float64(merged.Microseconds())/1000/float64(b.N), "merge_ms")
					b.ReportMetric(float64(timed.spent.Microseconds())/1000/float64(b.N), "index_ms")
					b.ReportMetric(float64(timed.spent.Microseconds())/1000/float64(b.N)/float64(n), "index_ms/page")
				})
			}
		})
	}
}
