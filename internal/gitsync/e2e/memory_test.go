package e2e_test

import (
	"bytes"
	"fmt"
	"io"
	"log"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"

	"quire/internal/gitsync"
	"quire/internal/jobs"
)

// maxHeapGrowth bounds what an import refused for its sizes may allocate.
const maxHeapGrowth = 64 << 20

// allocated is the number of bytes the process has allocated on its heap
// so far. What an operation adds to it bounds how much the heap grew
// during the operation, whatever the collector did meanwhile.
func allocated() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// gitCLI runs the git program in dir with a fixed identity and no user or
// system configuration; a test needing it is skipped where there is none.
func gitCLI(t testing.TB, dir string, stdin io.Reader, args ...string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git program installed")
	}
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Stdin = stdin
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME="+dir,
		"GIT_AUTHOR_NAME=Ada Writer", "GIT_AUTHOR_EMAIL=ada@example.test", "GIT_AUTHOR_DATE=2030-01-02T03:04:05Z",
		"GIT_COMMITTER_NAME=Ada Writer", "GIT_COMMITTER_EMAIL=ada@example.test", "GIT_COMMITTER_DATE=2030-01-02T03:04:05Z")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, errb.String())
	}
	return strings.TrimSpace(out.String())
}

// zeros reads as endless zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// packedRepo makes the bare repository dir with the git program: one
// commit on main holding a README and the files given (name → content),
// packed as git packs them (deltas between similar files included).
func packedRepo(t testing.TB, dir string, files map[string]io.Reader) {
	t.Helper()
	gitCLI(t, filepath.Dir(dir), nil, "init", "-q", "--bare", dir)
	files["README.md"] = strings.NewReader("# Home\n")
	var tree strings.Builder
	for name, r := range files {
		oid := gitCLI(t, dir, r, "hash-object", "-w", "--stdin")
		fmt.Fprintf(&tree, "100644 blob %s\t%s\n", oid, name)
	}
	top := gitCLI(t, dir, strings.NewReader(tree.String()), "mktree")
	commit := gitCLI(t, dir, nil, "commit-tree", top, "-m", "content")
	gitCLI(t, dir, nil, "update-ref", "refs/heads/main", commit)
	gitCLI(t, dir, nil, "repack", "-adq")
}

// gitHTTP serves the bare repositories below root over smart HTTP with
// the git program's own server (git http-backend), out of this process.
func gitHTTP(t testing.TB, root string) string {
	t.Helper()
	dir := gitCLI(t, root, nil, "--exec-path")
	// It writes on after a client that refused the pack hung up: not
	// worth a log line.
	quiet := log.New(io.Discard, "", 0)
	srv := httptest.NewServer(&cgi.Handler{Path: filepath.Join(dir, "git-http-backend"), Dir: root, Logger: quiet,
		Env: []string{"GIT_PROJECT_ROOT=" + root, "GIT_HTTP_EXPORT_ALL=1", "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null"}})
	t.Cleanup(srv.Close)
	return srv.URL
}

// A repository of 300 KB whose one file is 300 MB of zeros is refused by
// the size its object declares, before the object is inflated: the import
// fails for good naming the limit, and the whole import allocates less
// than 64 MiB, over HTTP from Git's own server as from a file:// URL
// (where go-git's in-process server packs what it sends).
func TestHugeObjectRefusedBeforeInflating(t *testing.T) {
	root := t.TempDir()
	packedRepo(t, filepath.Join(root, "zeros.git"), map[string]io.Reader{"zeros.bin": io.LimitReader(zeros{}, 300<<20)})
	base := gitHTTP(t, root)
	want := fmt.Sprintf("the repository is larger than this server accepts: an object of %d bytes (the limit is %d)", 300<<20, gitsync.DefaultLimits.ObjectBytes)
	forEachDB(t, withFiles(root), func(t *testing.T, e *env) {
		sp := e.space("Zeros")
		for _, url := range []string{base + "/zeros.git", "file://" + filepath.Join(root, "zeros.git")} {
			runtime.GC()
			before := allocated()
			in := e.importRepo(sp, map[string]any{"url": url, "ref": "refs/heads/main"})
			grew := allocated() - before
			t.Logf("%s: %d KiB allocated", url, grew>>10)
			wantJob(t, in, jobs.StateFailed)
			if in.Attempt != 1 || len(in.Errors) == 0 || !strings.HasSuffix(in.Errors[0].Message, want) {
				t.Errorf("%s: attempts %d, errors %+v, want %q", url, in.Attempt, in.Errors, want)
			}
			if grew > maxHeapGrowth {
				t.Errorf("%s: the import allocated %d MiB (at most %d MiB)", url, grew>>20, maxHeapGrowth>>20)
			}
		}
	})
}

// Similar files that Git packs as deltas count by the size of what each
// delta makes: together beyond the limit on unpacked bytes, they fail the
// import for good, naming that limit, whether the pack comes from Git's
// own server or from go-git's in-process one.
func TestTotalUnpackedLimitCountsDeltas(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "similar.git")
	files := map[string]io.Reader{}
	for i := range 6 {
		files[fmt.Sprintf("part%d.bin", i)] = io.MultiReader(io.LimitReader(zeros{}, 900<<10), strings.NewReader(fmt.Sprint(i)))
	}
	packedRepo(t, dir, files)
	deltas := 0
	for _, l := range strings.Split(gitCLI(t, dir, nil, "verify-pack", "-v", filepath.Join(dir, "objects", "pack", packName(t, dir))), "\n") {
		if f := strings.Fields(l); len(f) == 7 && f[1] == "blob" {
			deltas++
		}
	}
	if deltas < 4 {
		t.Fatalf("git packed %d of the 6 files as deltas", deltas)
	}
	base := gitHTTP(t, root)
	lim := gitsync.Limits{ObjectBytes: 1 << 20, TotalBytes: 4 << 20}
	o := withFiles(root)
	o.Git.Limits = lim
	want := "its files take more than 4194304 bytes unpacked (the limit of one download)"
	forEachDB(t, o, func(t *testing.T, e *env) {
		sp := e.space("Similar")
		for _, url := range []string{base + "/similar.git", "file://" + dir} {
			in := e.importRepo(sp, map[string]any{"url": url, "ref": "refs/heads/main"})
			wantJob(t, in, jobs.StateFailed)
			if in.Attempt != 1 || len(in.Errors) == 0 || !strings.HasSuffix(in.Errors[0].Message, want) {
				t.Errorf("%s: attempts %d, errors %+v, want %q", url, in.Attempt, in.Errors, want)
			}
		}
	})
}

// packName is the name of the one pack of a bare repository.
func packName(t testing.TB, dir string) string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, "objects", "pack", "*.pack"))
	if err != nil || len(m) != 1 {
		t.Fatalf("packs of %s: %v %v", dir, m, err)
	}
	return filepath.Base(m[0])
}
