package gitsync

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/transport"

	"quire/ent"
	"quire/internal/apierr"
	"quire/internal/catalog"
	"quire/internal/content"
	"quire/internal/jobs"
	"quire/internal/textcut"
	"quire/internal/types"
)

// errSkip stops an operation older than the latest one applied.
type errSkip struct{ msg string }

func (e *errSkip) Error() string { return e.msg }

// maxCommitMessage bounds the commit message a revision records.
const maxCommitMessage = 10_000

// Handlers is where jobs are registered (a jobs.Runner).
type Handlers interface {
	Handle(kind string, h jobs.Handler)
}

// Register registers the package's jobs.
func (s *Service) Register(r Handlers) {
	r.Handle(KindImport, s.importJob)
	r.Handle(KindExport, s.exportJob)
}

// job is one attempt of an import or an export.
type job struct {
	s    *Service
	run  jobs.Run
	a    args
	r    *remote
	user *ent.User
	ctx  context.Context // the job's context, acting for the user
}

// start reads a job's arguments and the user it acts for.
func (s *Service) start(ctx context.Context, run jobs.Run) (*job, error) {
	j := &job{s: s, run: run}
	if err := run.Args(&j.a); err != nil {
		return nil, jobs.Permanent(fmt.Errorf("read the job's arguments: %w", err))
	}
	r, err := parseRemote(j.a.URL, s.cfg.FileRoots)
	if err != nil {
		return nil, jobs.Permanent(err)
	}
	j.r = r
	u, err := s.client.User.Get(ctx, j.a.User)
	if ent.IsNotFound(err) {
		return nil, jobs.Permanent(errors.New("the user who asked for the operation no longer exists"))
	}
	if err != nil {
		return nil, err
	}
	j.user = u
	j.ctx = jobs.NewContext(ctx, s.client, u)
	return j, nil
}

// step reports progress.
func (j *job) step(fraction float64, format string, a ...any) error {
	return j.run.Progress(j.ctx, fraction, j.r.scrub(fmt.Sprintf(format, a...)))
}

// finish turns an attempt's error into the job's: nil for a skipped
// operation (its step says so), permanent for what retrying cannot fix,
// and never with credentials in it.
func (j *job) finish(err error) error {
	var skip *errSkip
	switch {
	case err == nil:
		return nil
	case errors.As(err, &skip):
		return j.run.Progress(context.WithoutCancel(j.ctx), 1, skip.msg)
	case errors.Is(err, jobs.ErrCancelled):
		return err
	}
	msg := j.r.scrub(err.Error())
	if permanent(err) {
		return jobs.Permanent(errors.New(msg))
	}
	return errors.New(msg)
}

// permanent tells the errors retrying cannot fix.
func permanent(err error) bool {
	var ce *errContent
	switch {
	case jobs.IsPermanent(err), errors.As(err, &ce), errors.Is(err, errTooLarge), errors.Is(err, errRefMissing),
		errors.Is(err, errBadPack), errors.Is(err, transport.ErrRepositoryNotFound),
		errors.Is(err, transport.ErrAuthenticationRequired), errors.Is(err, transport.ErrAuthorizationFailed),
		errors.Is(err, transport.ErrInvalidAuthMethod):
		return true
	}
	if ae, ok := apierr.As(err); ok {
		switch ae.Code {
		case apierr.Internal, apierr.Timeout, apierr.Unavailable, apierr.Canceled:
			return false
		}
		return true
	}
	return false
}

// stale returns errSkip when the space has applied an operation more
// recent than this one (and it is not forced).
func (j *job) stale(sp *ent.Space, what string) error {
	if j.a.Force || j.a.Timestamp == nil || sp.GitSync == nil || sp.GitSync.Timestamp == nil {
		return nil
	}
	if j.a.Timestamp.Before(*sp.GitSync.Timestamp) {
		return &errSkip{msg: fmt.Sprintf("Skipped: this %s's timestamp (%s) is older than that of the latest operation applied to the space (%s); force applies it anyway",
			what, j.a.Timestamp.UTC().Format(time.RFC3339), sp.GitSync.Timestamp.UTC().Format(time.RFC3339))}
	}
	return nil
}

// record writes the space's Git sync state after an operation, in tx.
func (j *job) record(ctx context.Context, tx *ent.Tx, sp *ent.Space, commit string) error {
	gs := &types.GitSync{}
	if sp.GitSync != nil {
		c := *sp.GitSync
		gs = &c
	}
	now := j.s.Now()
	gs.Installed = true
	gs.RepoName, gs.InstallationProvider, gs.Integration = repoName(j.r), provider(j.r, j.a.GitInfo), "git"
	if gs.InstallationProvider != "" {
		gs.Integration = gs.InstallationProvider
	}
	gs.URL = j.r.display
	switch {
	case j.a.GitInfo != nil && j.a.GitInfo.URL != "":
		gs.URL = j.a.GitInfo.URL
	case j.a.RepoTreeURL != "":
		gs.URL = j.a.RepoTreeURL
	}
	gs.UpdatedAt = &now
	gs.Remote, gs.Ref, gs.Commit = j.r.display, j.a.Ref, commit
	if t := j.a.Timestamp; t != nil && (gs.Timestamp == nil || t.After(*gs.Timestamp)) {
		u := t.UTC()
		gs.Timestamp = &u
	}
	return tx.Space.UpdateOneID(sp.ID).SetGitSync(gs).Exec(ctx)
}

// repoName is owner/name of a repository URL (its last two segments,
// without .git), or its last segment.
func repoName(r *remote) string {
	p := strings.Trim(r.display, "/")
	if r.dir != "" {
		p = r.dir
	} else if i := strings.Index(p, "://"); i >= 0 {
		p = p[i+3:]
		if j := strings.IndexByte(p, '/'); j >= 0 {
			p = p[j+1:]
		} else {
			p = ""
		}
	}
	if i := strings.IndexAny(p, "?#"); i >= 0 {
		p = p[:i]
	}
	parts := strings.Split(strings.Trim(p, "/"), "/")
	if len(parts) > 2 {
		parts = parts[len(parts)-2:]
	}
	if r.dir != "" {
		parts = parts[len(parts)-1:]
	}
	return strings.TrimSuffix(strings.Join(parts, "/"), ".git")
}

// provider is the Git provider: as the request said, or by host.
func provider(r *remote, gi *GitInfo) string {
	if gi != nil && gi.Provider != "" {
		return gi.Provider
	}
	host := ""
	if i := strings.Index(r.display, "://"); i >= 0 {
		host = strings.SplitN(r.display[i+3:], "/", 2)[0]
	}
	switch strings.ToLower(host) {
	case "github.com", "www.github.com":
		return "github"
	case "gitlab.com", "www.gitlab.com":
		return "gitlab"
	}
	return ""
}

func (s *Service) importJob(ctx context.Context, run jobs.Run) error {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Limits.AttemptTimeout)
	defer cancel()
	j, err := s.start(ctx, run)
	if err != nil {
		return err
	}
	return j.finish(j.importRepo())
}

func (j *job) importRepo() error {
	a, lim := &j.a, j.s.cfg.Limits
	if err := j.step(0.02, "Checking the space"); err != nil {
		return err
	}
	sp, err := j.s.content.SpaceFor(j.ctx, a.Space, types.RoleEdit)
	if err != nil {
		return err
	}
	if err := j.stale(sp, "import"); err != nil {
		return err
	}
	if err := j.step(0.05, "Fetching %s at %s", j.r.display, a.Ref); err != nil {
		return err
	}
	sess, err := j.s.open(j.r, lim)
	if err != nil {
		return err
	}
	snap, err := sess.fetch(j.ctx, a.Ref, lim, false)
	if err != nil {
		return err
	}
	oid := snap.commit.Hash.String()
	if err := j.step(0.4, "Reading commit %s", oid[:7]); err != nil {
		return err
	}
	proj, err := readProject(snap, a.ProjectDirectory, lim.Files)
	if err != nil {
		return err
	}
	cur, err := j.s.content.SpaceContent(j.ctx, a.Space)
	if err != nil {
		return err
	}
	first := ""
	if len(cur.Pages) > 0 && cur.Pages[0].Type == content.TypeDocument {
		first = cur.Pages[0].Slug
	}
	tree, err := newImporter(proj, lim, first).tree()
	if err != nil {
		return err
	}
	pages := 0
	var count func(list []*content.TreePage)
	count = func(list []*content.TreePage) {
		for _, tp := range list {
			pages++
			count(tp.Pages)
		}
	}
	count(tree.Pages)
	if err := j.step(0.7, "Writing %d pages and %d files", pages, len(tree.Files)); err != nil {
		return err
	}
	commit := &types.GitCommit{OID: oid, Message: textcut.Runes(snap.commit.Message, maxCommitMessage), Ref: a.Ref,
		CreatedByService: snap.commit.Committer.Name == j.s.cfg.CommitterName && snap.commit.Committer.Email == j.s.cfg.CommitterEmail}
	if a.RepoCommitURL != "" {
		commit.URL = a.RepoCommitURL + oid
	}
	res, err := j.s.content.WriteTree(j.ctx, a.Space, tree, content.TreeOptions{
		Standalone: a.Standalone, Git: commit,
		Check: func(_ context.Context, sp *ent.Space) error { return j.stale(sp, "import") },
		Then: func(ctx context.Context, tx *ent.Tx, res *content.TreeResult) error {
			return j.record(ctx, tx, res.Space, oid)
		},
	})
	if err != nil {
		return err
	}
	done := fmt.Sprintf("Imported commit %s: %d pages, %d files", oid[:7], pages, len(tree.Files))
	switch {
	case a.Standalone:
		done += fmt.Sprintf(" into standalone revision %s", res.Revision)
	case res.Revision == "":
		done += " (the space already held this content)"
	default:
		done += fmt.Sprintf(" as revision %s", res.Revision)
	}
	return j.step(1, "%s", done)
}

func (s *Service) exportJob(ctx context.Context, run jobs.Run) error {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Limits.AttemptTimeout)
	defer cancel()
	j, err := s.start(ctx, run)
	if err != nil {
		return err
	}
	return j.finish(j.exportSpace())
}

func (j *job) exportSpace() error {
	a, lim := &j.a, j.s.cfg.Limits
	if err := j.step(0.02, "Checking the space"); err != nil {
		return err
	}
	sp, err := j.s.content.SpaceFor(j.ctx, a.Space, types.RoleEdit)
	if err != nil {
		return err
	}
	if err := j.stale(sp, "export"); err != nil {
		return err
	}
	if err := j.step(0.05, "Reading the space's content"); err != nil {
		return err
	}
	rev, err := j.s.content.SpaceContent(j.ctx, a.Space)
	if err != nil {
		return err
	}
	var versions []string
	content.Walk(rev.Pages, func(p *content.Page) {
		if p.Type == content.TypeDocument {
			versions = append(versions, p.Version)
		}
	})
	docs, err := j.s.content.Documents(j.ctx, versions)
	if err != nil {
		return err
	}
	var hashes []string
	for _, r := range rev.ReusableContents {
		hashes = append(hashes, r.DocumentHash)
	}
	reusables, err := j.s.content.ReusableDocuments(j.ctx, hashes)
	if err != nil {
		return err
	}
	data := map[string][]byte{}
	for _, f := range rev.Files {
		_, b, err := j.s.content.FileContent(j.ctx, rev.ID, f.ID)
		if err != nil {
			return err
		}
		data[f.ID] = b
	}
	if err := j.step(0.3, "Fetching %s at %s", j.r.display, a.Ref); err != nil {
		return err
	}
	sess, err := j.s.open(j.r, lim)
	if err != nil {
		return err
	}
	snap, err := sess.fetch(j.ctx, a.Ref, lim, true)
	if err != nil {
		return err
	}
	root, readme, summary := a.ProjectDirectory, "README.md", "SUMMARY.md"
	owned := map[string]bool{}
	if snap.commit != nil {
		top, err := snap.commit.Tree()
		if err != nil {
			return err
		}
		dir, err := subtree(top, a.ProjectDirectory)
		if err != nil {
			return err
		}
		var sub string
		if sub, readme, summary, err = readLayout(snap, dir); err != nil {
			return err
		}
		root = path.Join(a.ProjectDirectory, sub)
		if owned, err = ownedFiles(snap, top, root, readme, summary); err != nil {
			return err
		}
	}
	files, err := export(a.Space, rev, docs, data, reusables, readme, summary)
	if err != nil {
		return err
	}
	if err := j.step(0.6, "Committing %d files", len(files)); err != nil {
		return err
	}
	now := j.s.Now()
	author := signature(j.user.DisplayName, j.user.Email, now)
	committer := signature(j.s.cfg.CommitterName, j.s.cfg.CommitterEmail, now)
	old := plumbing.ZeroHash
	if snap.commit != nil {
		old = snap.commit.Hash
	}
	next, w, err := commitFiles(snap, root, owned, files, author, committer, a.CommitMessage)
	if err != nil {
		return err
	}
	done := ""
	if next.IsZero() {
		next = old
		done = fmt.Sprintf("Nothing to export: %s already holds this content", a.Ref)
	} else {
		if err := j.step(0.8, "Pushing commit %s to %s", next.String()[:7], a.Ref); err != nil {
			return err
		}
		if err := sess.push(j.ctx, a.Ref, old, next, snap.store, w.fresh); err != nil {
			return err
		}
		done = fmt.Sprintf("Exported commit %s to %s", next.String()[:7], a.Ref)
	}
	err = catalog.WithTx(j.ctx, j.s.client, func(tx *ent.Tx) error {
		sp, err := lockSpace(j.ctx, tx.Client(), a.Space)
		if err != nil {
			return err
		}
		return j.record(j.ctx, tx, sp, next.String())
	})
	if err != nil {
		return err
	}
	return j.step(1, "%s", done)
}
