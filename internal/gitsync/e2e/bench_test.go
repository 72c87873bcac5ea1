package e2e_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"quire/internal/gitsync"
	"quire/internal/gitsync/gittest"
	"quire/internal/jobs"
	"quire/internal/testing/testenv"
)

// docsRepo is a repository of n pages in groups of ten (a page per
// directory README with nine children), each about 2 KB of Markdown
// linking to its neighbours, listed by a SUMMARY.md.
func docsRepo(n int) map[string][]byte {
	files := map[string][]byte{}
	var summary strings.Builder
	summary.WriteString("# Table of contents\n\n* [Home](README.md)\n")
	files["README.md"] = []byte("# Home\n\nStart with [section 0](s0/README.md).\n")
	para := strings.Repeat("Lorem ipsum dolor sit amet, **consectetur** adipiscing elit, sed do `eiusmod` tempor. ", 6)
	for i := 0; i*10 < n; i++ {
		fmt.Fprintf(&summary, "* [Section %d](s%d/README.md)\n", i, i)
		files[fmt.Sprintf("s%d/README.md", i)] = []byte(fmt.Sprintf("# Section %d\n\n%s\n\nNext: [section %d](../s%d/README.md).\n", i, para, i+1, i+1))
		for j := 1; j < 10 && i*10+j < n; j++ {
			fmt.Fprintf(&summary, "  * [Page %d.%d](s%d/p%d.md)\n", i, j, i, j)
			files[fmt.Sprintf("s%d/p%d.md", i, j)] = []byte(fmt.Sprintf("# Page %d.%d\n\n## Details\n\n%s\n\n- see [the section](README.md)\n- see [the home page](../README.md#home)\n\n%s\n", i, j, para, para))
		}
	}
	files["SUMMARY.md"] = []byte(summary.String())
	return files
}

// BenchmarkGitSync measures an import of a repository into a new space
// and an export of that space to an empty repository, each a whole job
// (fetch or push over smart HTTP on 127.0.0.1, conversion, write),
// on both databases.
//
//	go test ./internal/gitsync -run '^$' -bench GitSync -benchtime 3x
func BenchmarkGitSync(b *testing.B) {
	for _, backend := range testenv.Backends {
		for _, n := range []int{100, 1000} {
			b.Run(fmt.Sprintf("%s/pages=%d", backend, n), func(b *testing.B) {
				te := testenv.NewWith(b, backend, testenv.Options{Git: gitsync.Config{AllowPrivate: true}})
				te.StartJobs()
				e := &env{Env: te, team: te.NewTeam(), git: gittest.New(b, gitUser, gitPassword)}
				e.git.Repo(b, "docs")
				gittest.Commit(b, e.git.RepoDir("docs"), "main", docsRepo(n), "docs")
				var imports, exports time.Duration
				for i := 0; i < b.N; i++ {
					sp := e.space(fmt.Sprintf("Docs %d", i))
					start := time.Now()
					in := e.importRepo(sp, map[string]any{"url": e.git.WithCredentials("docs"), "ref": "refs/heads/main"})
					imports += time.Since(start)
					if in.State != jobs.StateCompleted || !strings.Contains(in.Step, fmt.Sprintf("%d pages", n+1)) {
						b.Fatalf("import: %+v", in)
					}
					repo := fmt.Sprintf("out%d", i)
					e.git.Repo(b, repo)
					start = time.Now()
					in = e.exportSpace(sp, map[string]any{"url": e.git.WithCredentials(repo), "ref": "refs/heads/main", "commitMessage": "export"})
					exports += time.Since(start)
					if in.State != jobs.StateCompleted {
						b.Fatalf("export: %+v", in)
					}
				}
				b.ReportMetric(float64(imports.Milliseconds())/float64(b.N), "import-ms/op")
				b.ReportMetric(float64(exports.Milliseconds())/float64(b.N), "export-ms/op")
			})
		}
	}
}
