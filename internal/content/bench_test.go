package content_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"quire/ent"
	"quire/internal/content"
)

// Run with:
//
//	go test ./internal/content/ -run '^$' -bench . -benchtime 20x
//
// Each backend gets a space of 10,000 pages (100 root pages with 99
// children each, about 2 KB of Markdown per page, so 200 KB per 100 pages)
// and a space of 100 pages, built once; the sub-benchmarks report ns/op and
// stmts/op (SQL statements per operation, from db.DB.Statements).

var words = strings.Fields(`quire space page revision change request merge document markdown
content block paragraph heading list table code hint link file image group section site publish
review editor draft open archive branch history version snapshot delta entry tree parent child
position order title slug emoji cover layout variable search index token user member organization`)

// pageMarkdown generates about 2 KB of Markdown.
func pageMarkdown(r *rand.Rand, title string) string {
	sentence := func(n int) string {
		w := make([]string, n)
		for i := range w {
			w[i] = words[r.IntN(len(words))]
		}
		w[0] = strings.ToUpper(w[0][:1]) + w[0][1:]
		return strings.Join(w, " ") + "."
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", title)
	for b.Len() < 1900 {
		switch r.IntN(5) {
		case 0:
			fmt.Fprintf(&b, "## %s\n\n", strings.TrimSuffix(sentence(3), "."))
		case 1:
			fmt.Fprintf(&b, "- %s\n- %s **%s**\n- %s\n\n", sentence(6), sentence(5), words[r.IntN(len(words))], sentence(7))
		case 2:
			fmt.Fprintf(&b, "```go\nfunc %s() {\n\treturn\n}\n```\n\n", words[r.IntN(len(words))])
		default:
			fmt.Fprintf(&b, "%s %s [%s](https://example.com/%s) %s\n\n", sentence(12), sentence(9),
				words[r.IntN(len(words))], words[r.IntN(len(words))], sentence(10))
		}
	}
	return b.String()
}

// benchSpace is a space filled with generated pages.
type benchSpace struct {
	space *ent.Space
	pages []string // page ids, roots first
	leaf  string   // a nested page
}

// fill creates roots×(perRoot+1) pages in e.space through one change
// request, merged.
func (e *env) fill(roots, perRoot int) benchSpace {
	e.t.Helper()
	r := rand.New(rand.NewPCG(1, 2))
	cr := e.cr("Generate")
	ops := make([]content.Op, roots)
	for i := range ops {
		title := fmt.Sprintf("Chapter %d", i)
		ops[i] = &content.CreatePage{Title: title, Markdown: md(pageMarkdown(r, title))}
	}
	res := e.edit(cr, e.alice.ID, ops...)
	bs := benchSpace{pages: res.IDs}
	ops = ops[:0]
	for i, parent := range res.IDs {
		for j := range perRoot {
			title := fmt.Sprintf("Section %d.%d", i, j)
			ops = append(ops, &content.CreatePage{Title: title, Parent: parent, Markdown: md(pageMarkdown(r, title))})
		}
	}
	if len(ops) > 0 {
		res = e.edit(res.ChangeRequest, e.alice.ID, ops...)
		bs.pages = append(bs.pages, res.IDs...)
	}
	if m := e.merge(res.ChangeRequest); m.Result != content.ResultMerge {
		e.t.Fatalf("merge: %+v", m)
	}
	bs.space = e.reload(e.space.ID)
	bs.leaf = bs.pages[len(bs.pages)/2]
	return bs
}

func BenchmarkContent(b *testing.B) {
	ctx := context.Background()
	for _, backend := range backends {
		b.Run(backend, func(b *testing.B) {
			e := newEnv(b, backend)
			small := e.fill(10, 9) // 100 pages
			e.space = e.newSpace("Large")
			large := e.fill(100, 99) // 10,000 pages
			measure := func(b *testing.B, fn func(b *testing.B)) {
				b.ReportAllocs()
				start := e.db.Statements()
				b.ResetTimer()
				fn(b)
				b.StopTimer()
				b.ReportMetric(float64(e.db.Statements()-start)/float64(b.N), "stmts/op")
			}
			for _, s := range []struct {
				name string
				bs   benchSpace
			}{{"pages=100", small}, {"pages=10000", large}} {
				b.Run("CreateChangeRequest/"+s.name, func(b *testing.B) {
					// One caller context for the run, as a request would
					// have: its loaders hold the caller's rights.
					as := e.as(e.alice.ID)
					if _, err := e.svc.SpaceFor(as, s.bs.space.ID, "edit"); err != nil {
						b.Fatal(err)
					}
					measure(b, func(b *testing.B) {
						for range b.N {
							if _, err := e.svc.CreateChangeRequest(as, s.bs.space.ID, content.CreateChangeRequest{Subject: "x"}); err != nil {
								b.Fatal(err)
							}
						}
					})
				})
			}
			for _, s := range []struct {
				name string
				bs   benchSpace
			}{{"pages=100", small}, {"pages=10000", large}} {
				b.Run("ReadTree/"+s.name, func(b *testing.B) {
					measure(b, func(b *testing.B) {
						for range b.N {
							rev, err := e.svc.Revision(ctx, s.bs.space.RevisionID)
							if err != nil {
								b.Fatal(err)
							}
							if len(rev.Pages) == 0 {
								b.Fatal("empty tree")
							}
						}
					})
				})
				b.Run("ReadPageMarkdown/"+s.name, func(b *testing.B) {
					measure(b, func(b *testing.B) {
						for range b.N {
							p, err := e.svc.Page(ctx, s.bs.space.RevisionID, s.bs.leaf)
							if err != nil {
								b.Fatal(err)
							}
							if len(p.Markdown) < 1000 {
								b.Fatalf("markdown of %d bytes", len(p.Markdown))
							}
						}
					})
				})
			}
			b.Run("MergeEdit100/pages=10000", func(b *testing.B) {
				e.space = large.space
				r := rand.New(rand.NewPCG(3, 4))
				b.ReportAllocs()
				var stmts int64
				b.ResetTimer()
				for i := range b.N {
					b.StopTimer()
					cr := e.cr(fmt.Sprintf("Edit %d", i))
					ops := make([]content.Op, 100)
					for j := range ops {
						id := large.pages[(i*100+j*97)%len(large.pages)]
						ops[j] = &content.UpdatePage{Page: id, Markdown: md(pageMarkdown(r, fmt.Sprintf("Edited %d.%d", i, j)))}
					}
					res := e.edit(cr, e.alice.ID, ops...)
					as := e.as(e.alice.ID)
					if _, _, err := e.svc.ChangeRequestFor(as, res.ChangeRequest.ID, "review"); err != nil {
						b.Fatal(err)
					}
					start := e.db.Statements()
					b.StartTimer()
					m, err := e.svc.Merge(as, res.ChangeRequest.ID)
					b.StopTimer()
					stmts += e.db.Statements() - start
					if err != nil || m.Result != content.ResultMerge {
						b.Fatalf("merge: %+v %v", m, err)
					}
					b.StartTimer()
				}
				b.StopTimer()
				b.ReportMetric(float64(stmts)/float64(b.N), "stmts/op")
			})
		})
	}
}
