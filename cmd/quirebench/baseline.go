package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync/atomic"

	"quire/internal/auth"
	"quire/internal/testing/benchkit"
)

// The bare handlers answer the read workloads' requests each with ONE SQL
// statement over the same PostgreSQL that checks the token's membership in
// the object's organization and builds the whole JSON answer; the handler
// writes the text back. They are yardsticks of what a request costs at the
// least (HTTP, one round trip, JSON built by the database), not second
// implementations: they know only the admin token the benchmark seeds
// (permissions follow the member's role, not the collections above a
// space).

// viewerCTE is the role, in the organization of the CTE org, of the
// token whose hash is $1.
const viewerCTE = `viewer AS (
  SELECT m.role FROM api_tokens t JOIN members m ON m.user_id = t.user_id
  WHERE t.token_hash = $1 AND m.organization_id = (SELECT id FROM org) AND NOT m.disabled AND m.role IS NOT NULL)`

// siteGraphQL answers siteQuery: $1 token hash, $2 site id.
const siteGraphQL = `WITH org AS (SELECT organization_id AS id FROM sites WHERE id = $2),
` + viewerCTE + `
SELECT json_build_object('data', json_build_object('site', json_build_object(
  'id', s.id, 'title', s.title, 'hostname', s.hostname,
  'organization', json_build_object('id', o.id, 'title', o.title),
  'sections', json_build_object('nodes', COALESCE((
    SELECT json_agg(json_build_object('id', sec.id, 'title', sec.title, 'path', sec.path,
      'siteSpaces', json_build_object('nodes', COALESCE((
        SELECT json_agg(json_build_object('id', x.id, 'path', x.path,
          'space', json_build_object('id', sp.id, 'title', sp.title, 'visibility', upper(replace(sp.visibility, '-', '_'))))
          ORDER BY x.position COLLATE "C", x.id COLLATE "C")
        FROM site_spaces x JOIN spaces sp ON sp.id = x.space_id WHERE x.section_id = sec.id), '[]'::json)))
      ORDER BY sec.position COLLATE "C", sec.id COLLATE "C")
    FROM site_sections sec WHERE sec.site_id = s.id), '[]'::json)))))::text
FROM sites s JOIN organizations o ON o.id = s.organization_id
WHERE s.id = $2 AND s.organization_id = (SELECT id FROM org) AND EXISTS (SELECT 1 FROM viewer)`

// spaceDoc is the JSON of a space sp for the caller's role v ($3: public
// URL), in REST's shape, or with gql in GraphQL's (enum values in capitals,
// the organization and parent as objects).
func spaceDoc(gql bool) string {
	vis, org, parent := "sp.visibility", "sp.organization_id", "sp.parent_id"
	if gql {
		vis = "upper(replace(sp.visibility, '-', '_'))"
		org = "json_build_object('id', sp.organization_id)"
		parent = "CASE WHEN sp.parent_id IS NOT NULL THEN json_build_object('id', sp.parent_id) END"
	}
	return `json_strip_nulls(json_build_object(
  'object', 'space', 'id', sp.id, 'title', sp.title, 'emoji', sp.emoji, 'visibility', ` + vis + `,
  'createdAt', to_char(sp.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'updatedAt', to_char(sp.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'editMode', sp.edit_mode, 'mergeRules', sp.merge_rules,
  'urls', json_build_object('location', $3::text || '/v1/spaces/' || sp.id, 'app', $3::text || '/app/o/' || sp.organization_id || '/s/' || sp.id),
  'organization', ` + org + `, 'parent', ` + parent + `, 'language', sp.language, 'revision', sp.revision_id,
  'defaultLevel', sp.default_level, 'comments', sp.comments, 'changeRequests', sp.change_requests,
  'changeRequestsOpen', sp.change_requests_open, 'changeRequestsDraft', sp.change_requests_draft,
  'permissions', json_build_object('view', true, 'access', true, 'admin', v.role = 'admin', 'viewInviteLinks', v.role = 'admin',
    'edit', v.role IN ('admin', 'create', 'review', 'edit'), 'triggerGitSync', v.role IN ('admin', 'create', 'review', 'edit'),
    'comment', v.role <> 'read', 'merge', v.role IN ('admin', 'create', 'review'), 'review', v.role IN ('admin', 'create', 'review'),
    'installIntegration', v.role = 'admin')))`
}

// spaceStatement answers GET /v1/spaces/{id} (or, with gql, the space
// query): $1 token hash, $2 space id, $3 public URL.
func spaceStatement(gql bool) string {
	return `WITH org AS (SELECT organization_id AS id FROM spaces WHERE id = $2),
` + viewerCTE + `
SELECT ` + spaceDoc(gql) + `::text
FROM spaces sp, viewer v WHERE sp.id = $2 AND sp.organization_id = (SELECT id FROM org) AND sp.deleted_at IS NULL`
}

// bare is the bare handler of every read workload.
type bare struct {
	published  *benchkit.PublishedBaseline
	site       *sql.Stmt
	space      *sql.Stmt
	spaceGQL   *sql.Stmt
	publicURL  string
	Statements atomic.Int64
}

func newBare(ctx context.Context, d *sql.DB, publicURL string) (*bare, error) {
	pub, err := benchkit.NewPublishedBaseline(ctx, d, "postgres", publicURL)
	if err != nil {
		return nil, err
	}
	b := &bare{published: pub, publicURL: publicURL}
	// Prepared once: a round trip less, and no planning once PostgreSQL
	// caches the plan.
	if b.site, err = d.PrepareContext(ctx, siteGraphQL); err != nil {
		return nil, err
	}
	if b.space, err = d.PrepareContext(ctx, spaceStatement(false)); err != nil {
		return nil, err
	}
	if b.spaceGQL, err = d.PrepareContext(ctx, spaceStatement(true)); err != nil {
		return nil, err
	}
	return b, nil
}

// ServeHTTP answers GET .../published, GET /v1/spaces/{id} and POST
// /graphql (siteQuery and spaceQuery, told apart by operation name).
func (b *bare) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasSuffix(r.URL.Path, "/published") {
		b.Statements.Add(1)
		b.published.ServeHTTP(w, r)
		return
	}
	secret := auth.BearerToken(r.Header.Get("Authorization"))
	if secret == "" {
		http.Error(w, `{"error":{"code":401,"message":"Authentication required"}}`, http.StatusUnauthorized)
		return
	}
	var stmt *sql.Stmt
	var id string
	wrap, withURL := false, true
	switch {
	case r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/v1/spaces/"):
		stmt, id = b.space, strings.TrimPrefix(r.URL.Path, "/v1/spaces/")
	case r.Method == http.MethodPost && r.URL.Path == "/graphql":
		var in struct {
			OperationName string            `json:"operationName"`
			Variables     map[string]string `json:"variables"`
		}
		if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&in); err != nil {
			http.Error(w, `{"errors":[{"message":"bad request"}]}`, http.StatusBadRequest)
			return
		}
		id = in.Variables["id"]
		switch in.OperationName {
		case "Site":
			stmt, withURL = b.site, false
		case "Space":
			stmt, wrap = b.spaceGQL, true
		}
	}
	if stmt == nil {
		http.Error(w, `{"error":{"code":404,"message":"not found"}}`, http.StatusNotFound)
		return
	}
	var doc string
	b.Statements.Add(1)
	args := []any{auth.Hash(secret), id}
	if withURL {
		args = append(args, b.publicURL)
	}
	err := stmt.QueryRowContext(r.Context(), args...).Scan(&doc)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		http.Error(w, `{"error":{"code":404,"message":"not found"}}`, http.StatusNotFound)
		return
	case err != nil:
		msg, _ := json.Marshal(err.Error())
		http.Error(w, `{"error":{"code":500,"message":`+string(msg)+`}}`, http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	if wrap {
		doc = `{"data":{"space":` + doc + `}}`
	}
	_, _ = w.Write([]byte(doc))
}
