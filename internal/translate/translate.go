// Package translate is the engine of translations: a translation keeps a
// space (its source) translated into another language, in a result space
// it creates on its first run. A run is a background job that translates
// the pages of the source space's current revision that changed since the
// last run (or all of them when the instructions changed) through a
// Provider (LibreTranslate), keeping document structure, code, URLs and
// content references as they are, and writes them as one revision of the
// result space, whose page and file ids stay the same from run to run.
//
// Who may do what: a translation is seen by those who may read its source
// space; creating, changing, deleting and running one needs the create
// role in the organization (a run creates a space) as well.
package translate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"time"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"

	"quire/ent"
	"quire/ent/translation"
	"quire/internal/apierr"
	"quire/internal/auth"
	"quire/internal/authz"
	"quire/internal/catalog"
	"quire/internal/content"
	"quire/internal/db"
	"quire/internal/document"
	"quire/internal/ids"
	"quire/internal/jobs"
	"quire/internal/pagination"
	"quire/internal/types"
)

// Statuses of a translation.
const (
	StatusPending   = "pending"
	StatusRunning   = "running"
	StatusCompleted = "completed"
)

// KindRun is the background job of a run.
const KindRun = "translation.run"

// ErrNoProvider is the refusal of a run when no translation server is
// configured.
var ErrNoProvider = apierr.Invalid("translationId",
	"No translation provider is configured: start quire with QUIRE_TRANSLATE_URL set to the URL of a LibreTranslate server (and QUIRE_TRANSLATE_KEY when it needs an API key)")

// Service is the translations engine.
type Service struct {
	Client  *ent.Client
	Content *content.Service
	Catalog *catalog.Service
	Jobs    Jobs
	// Provider translates; nil when none is configured (runs are refused).
	Provider Provider
	Now      func() time.Time
}

// New returns the engine.
func New(client *ent.Client, cat *catalog.Service, cont *content.Service, enq Jobs, p Provider) *Service {
	return &Service{Client: client, Catalog: cat, Content: cont, Jobs: enq, Provider: p, Now: func() time.Time { return time.Now().UTC() }}
}

// CreateInput creates a translation.
type CreateInput struct {
	Organization   string
	SourceSpace    string
	SourceLanguage string
	Language       string
	Instructions   *document.Document
}

// MaxInstructions is the largest instructions document, in bytes of JSON.
const MaxInstructions = 100_000

func encodeInstructions(d *document.Document) (*string, error) {
	if d == nil {
		return nil, nil
	}
	b, err := json.Marshal(d)
	if err != nil {
		return nil, fmt.Errorf("encode instructions: %w", err)
	}
	if len(b) > MaxInstructions {
		return nil, apierr.Invalid("instructions", "instructions must be at most %d bytes of JSON", MaxInstructions)
	}
	s := string(b)
	return &s, nil
}

// Instructions is a translation's instructions document, or nil.
func Instructions(t *ent.Translation) (*document.Document, error) {
	if t.Instructions == nil {
		return nil, nil
	}
	return document.Parse([]byte(*t.Instructions))
}

// Rules are the glossary rules of a translation's instructions.
func Rules(t *ent.Translation) []Rule {
	d, err := Instructions(t)
	if err != nil {
		return nil
	}
	return Glossary(d)
}

// canEdit reports whether the caller may change translations of an
// organization (the create role).
func canEdit(ctx context.Context, orgID string) (bool, error) {
	role, _, err := authz.OrgRole(ctx, orgID)
	if err != nil {
		return false, err
	}
	return role.AtLeast(types.RoleCreate), nil
}

// Create creates a translation of a space. The source language and the
// target must be supported language codes and differ.
// Errors: NotFound (organization), BadRequest (the source space unknown,
// not readable or of another organization; languages), Forbidden.
func (s *Service) Create(ctx context.Context, in CreateInput) (*ent.Translation, error) {
	if _, member, err := authz.OrgRole(ctx, in.Organization); err != nil {
		return nil, err
	} else if !member {
		return nil, apierr.NotFoundf("No matching organization found for id %q", in.Organization)
	}
	for _, l := range []struct{ field, v string }{{"source.language", in.SourceLanguage}, {"language", in.Language}} {
		if !types.Language(l.v).Valid() {
			return nil, apierr.Invalid(l.field, "%s %q is not a supported language code", l.field, l.v)
		}
	}
	if ok, err := canEdit(ctx, in.Organization); err != nil {
		return nil, err
	} else if !ok {
		return nil, apierr.Forbiddenf("You need the create role in the organization to create translations")
	}
	if in.SourceLanguage == in.Language {
		return nil, apierr.Invalid("language", "language must differ from the source's language")
	}
	sp, _, err := s.Catalog.Space(ctx, in.SourceSpace)
	if apierr.CodeOf(err) == apierr.NotFound || (err == nil && sp.OrganizationID != in.Organization) {
		return nil, apierr.Invalid("source.space", "source.space: no space %q in the organization", in.SourceSpace)
	}
	if err != nil {
		return nil, err
	}
	if sp.DeletedAt != nil {
		return nil, apierr.Invalid("source.space", "source.space: the space %q is deleted", in.SourceSpace)
	}
	instr, err := encodeInstructions(in.Instructions)
	if err != nil {
		return nil, err
	}
	now := s.Now()
	return s.Client.Translation.Create().SetOrganizationID(in.Organization).SetSourceSpaceID(sp.ID).
		SetSourceLanguage(in.SourceLanguage).SetLanguage(in.Language).SetNillableInstructions(instr).
		SetCreatedBy(actor(ctx)).SetCreatedAt(now).SetUpdatedAt(now).Save(ctx)
}

func actor(ctx context.Context) string {
	if u := auth.Viewer(ctx); u != nil {
		return u.ID
	}
	return ""
}

// Translation returns a translation the caller may see: NotFound unless
// they may read its source space.
func (s *Service) Translation(ctx context.Context, id string) (*ent.Translation, error) {
	nf := apierr.NotFoundf("No matching translation found for id %q", id)
	if k, ok := ids.KindOf(id); !ok || k != ids.Translation {
		return nil, nf
	}
	t, err := s.Client.Translation.Get(ctx, id)
	if ent.IsNotFound(err) {
		return nil, nf
	}
	if err != nil {
		return nil, fmt.Errorf("read translation: %w", err)
	}
	if _, _, err := s.Catalog.Space(ctx, t.SourceSpaceID); err != nil {
		if apierr.CodeOf(err) == apierr.NotFound {
			return nil, nf
		}
		return nil, err
	}
	return t, nil
}

// forEdit returns a translation the caller may change.
func (s *Service) forEdit(ctx context.Context, id string) (*ent.Translation, error) {
	t, err := s.Translation(ctx, id)
	if err != nil {
		return nil, err
	}
	if ok, err := canEdit(ctx, t.OrganizationID); err != nil {
		return nil, err
	} else if !ok {
		return nil, apierr.Forbiddenf("You need the create role in the organization to change translations")
	}
	return t, nil
}

// Permissions are what the caller may do with a translation they see.
func (s *Service) Permissions(ctx context.Context, t *ent.Translation) (view, edit bool, err error) {
	edit, err = canEdit(ctx, t.OrganizationID)
	return true, edit, err
}

// Translations lists the translations of an organization whose source
// space the caller may read, oldest first.
// Errors: NotFound (organization), BadRequest (paging).
func (s *Service) Translations(ctx context.Context, orgID string, args catalog.PageArgs) (pagination.Page[*ent.Translation], error) {
	var none pagination.Page[*ent.Translation]
	if _, member, err := authz.OrgRole(ctx, orgID); err != nil {
		return none, err
	} else if !member {
		return none, apierr.NotFoundf("No matching organization found for id %q", orgID)
	}
	all, err := s.Client.Translation.Query().Where(translation.OrganizationID(orgID)).All(ctx)
	if err != nil {
		return none, fmt.Errorf("list translations: %w", err)
	}
	spaceIDs := make([]string, 0, len(all))
	for _, t := range all {
		spaceIDs = append(spaceIDs, t.SourceSpaceID)
	}
	seen, err := s.Catalog.SpacesSeen(ctx, spaceIDs)
	if err != nil {
		return none, err
	}
	var list []*ent.Translation
	for _, t := range all {
		if seen[t.SourceSpaceID] != nil {
			list = append(list, t)
		}
	}
	sort.Slice(list, func(i, j int) bool { return cursor(list[i]).Compare(cursor(list[j])) < 0 })
	return catalog.Paginate(list, cursor, args)
}

func cursor(t *ent.Translation) pagination.Cursor {
	return pagination.Cursor{Key: t.CreatedAt.UTC().Format(time.RFC3339Nano), ID: t.ID}
}

// UpdateInstructions replaces a translation's instructions; the next run
// translates every page again with them.
// Errors: NotFound, Forbidden, BadRequest.
func (s *Service) UpdateInstructions(ctx context.Context, id string, d *document.Document) (*ent.Translation, error) {
	if _, err := s.forEdit(ctx, id); err != nil {
		return nil, err
	}
	instr, err := encodeInstructions(d)
	if err != nil {
		return nil, err
	}
	u := s.Client.Translation.UpdateOneID(id).SetUpdatedAt(s.Now())
	if instr == nil {
		u.ClearInstructions()
	} else {
		u.SetInstructions(*instr)
	}
	return u.Save(ctx)
}

// Delete deletes a translation (its result space stays). It returns false
// when there was none the caller may see.
// Errors: Forbidden.
func (s *Service) Delete(ctx context.Context, id string) (bool, error) {
	if _, err := s.forEdit(ctx, id); err != nil {
		if apierr.CodeOf(err) == apierr.NotFound {
			return false, nil
		}
		return false, err
	}
	n, err := s.Client.Translation.Delete().Where(translation.ID(id)).Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("delete translation: %w", err)
	}
	return n > 0, nil
}

// runArgs are the arguments of KindRun.
type runArgs struct {
	Translation string `json:"translation"`
	// User asked for the run; the run acts for them.
	User string `json:"user,omitempty"`
}

// Jobs enqueues runs and tells whether one is waiting or running.
type Jobs interface {
	jobs.Enqueuer
	Latest(ctx context.Context, subject string) (*jobs.Info, error)
}

// Run asks for a run: the translation is pending until a worker starts it.
// A run asked for while one is waiting or running is that run.
// Errors: NotFound, Forbidden, BadRequest (no provider configured).
func (s *Service) Run(ctx context.Context, id string) (*ent.Translation, error) {
	t, err := s.forEdit(ctx, id)
	if err != nil {
		return nil, err
	}
	if s.Provider == nil {
		return nil, ErrNoProvider
	}
	subject := "translation:" + id
	var out *ent.Translation
	err = db.WithTx(ctx, s.Client, func(tx *ent.Tx) error {
		cur, err := tx.Translation.Query().Where(translation.ID(id), lockedRow).Only(ctx)
		if ent.IsNotFound(err) {
			return apierr.NotFoundf("No matching translation found for id %q", id)
		}
		if err != nil {
			return fmt.Errorf("lock translation: %w", err)
		}
		if last, err := s.Jobs.Latest(ctx, subject); err == nil && !last.State.Finished() {
			out = cur
			return nil
		} else if err != nil && !errors.Is(err, jobs.ErrNotFound) {
			return err
		}
		if _, err := s.Jobs.Enqueue(ctx, tx, jobs.Request{Kind: KindRun, Args: runArgs{Translation: id, User: actor(ctx)},
			Organization: t.OrganizationID, Space: t.SourceSpaceID, Subject: subject, CreatedBy: actor(ctx)}); err != nil {
			return err
		}
		out, err = tx.Translation.UpdateOneID(id).SetStatus(StatusPending).SetUpdatedAt(s.Now()).Save(ctx)
		return err
	})
	return out, err
}

// lockedRow locks the rows a query reads until the transaction ends, on
// PostgreSQL; SQLite's write transactions are serialized already.
func lockedRow(s *entsql.Selector) {
	if s.Dialect() == dialect.Postgres {
		s.For(entsql.LockUpdate)
	}
}
