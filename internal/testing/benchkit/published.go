package benchkit

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"

	"entgo.io/ent/dialect"

	"quire/internal/auth"
	"quire/internal/customization"
)

// The published baseline answers GET /v1/orgs/{org}/sites/{site}/published with ONE
// hand-written SQL statement that checks the token and the membership,
// computes the caller's level on every space (walking the collections
// above it), and builds the whole JSON document in the database. The
// handler only writes the text the statement returns.
//
// It is a yardstick, not a second implementation: it covers what the
// benchmark seeds (a published, non-share-link site whose structure is
// sections without groups; site spaces without customization overrides are
// exact, overrides are merged shallowly) and gives 404 for everything else
// it does not find.

// baselinePostgres: $1 token hash, $2 organization id, $3 site id,
// $4 public URL, $5 default customization settings, $6 features by site type.
//
// It builds json (text), not jsonb: containers are assembled from their
// members' text without reparsing. An object with optional members is built
// twice, the required members and the non-null optional ones, and the two
// texts are joined (REST omits null optional members).
const baselinePostgres = `
WITH RECURSIVE viewer AS (
  SELECT m.role
  FROM api_tokens t JOIN members m ON m.user_id = t.user_id
  WHERE t.token_hash = $1 AND m.organization_id = $2 AND NOT m.disabled AND m.role IS NOT NULL
),
site AS (
  SELECT s.*,
    CASE WHEN s.published AND s.visibility <> 'share-link' THEN
      CASE WHEN s.hostname IS NOT NULL THEN 'https://' || s.hostname
           ELSE $4::text || '/s/' || s.organization_id || '/' || s.basename END
    END AS pub_url,
    COALESCE(convert_from(s.customization, 'UTF8'), $5::text) AS settings
  FROM sites s
  WHERE s.id = $3 AND s.organization_id = $2 AND EXISTS (SELECT 1 FROM viewer)
),
chain AS (
  SELECT sp.id AS space_id, sp.default_level AS level, sp.parent_id AS next, 0 AS depth
  FROM spaces sp
  WHERE sp.id IN (SELECT x.space_id FROM site_spaces x JOIN site ON x.site_id = site.id)
  UNION ALL
  SELECT c.space_id, col.default_level, col.parent_id, c.depth + 1
  FROM chain c JOIN collections col ON col.id = c.next
  WHERE c.level = 'inherit' AND c.depth <= 64
),
lvl AS (
  SELECT DISTINCT ON (space_id) space_id,
    CASE WHEN (SELECT role FROM viewer) = 'admin' THEN 'admin'
         WHEN level = 'inherit' THEN (SELECT role FROM viewer)
         ELSE level END AS level
  FROM chain
  ORDER BY space_id, depth DESC
),
rnk AS MATERIALIZED (
  SELECT space_id, CASE level WHEN 'admin' THEN 6 WHEN 'create' THEN 5 WHEN 'review' THEN 4
    WHEN 'edit' THEN 3 WHEN 'comment' THEN 2 WHEN 'read' THEN 1 ELSE 0 END AS r
  FROM lvl
),
secs AS (
  SELECT sec.*, COALESCE(sec.id = site.default_section_id, false) AS is_default,
    CASE WHEN site.pub_url IS NULL THEN NULL
         WHEN sec.id = site.default_section_id THEN site.pub_url
         ELSE site.pub_url || '/' || sec.path END AS url
  FROM site_sections sec JOIN site ON sec.site_id = site.id
),
sss AS MATERIALIZED (
  SELECT x.id, x.section_id, x.position,
    CASE WHEN x.customization IS NULL THEN site.settings
         ELSE (site.settings::jsonb || convert_from(x.customization, 'UTF8')::jsonb)::text END AS settings,
    CASE WHEN d.opt = '{}' THEN d.req ELSE left(d.req, -1) || ', ' || substr(d.opt, 2) END AS doc
  FROM site_spaces x
  JOIN site ON x.site_id = site.id
  JOIN secs ON secs.id = x.section_id
  JOIN spaces sp ON sp.id = x.space_id
  LEFT JOIN rnk r ON r.space_id = sp.id
  CROSS JOIN LATERAL (SELECT
    json_build_object(
      'object', 'space', 'id', sp.id, 'title', sp.title, 'emoji', sp.emoji, 'visibility', sp.visibility,
      'createdAt', rtrim(rtrim(to_char(sp.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US'), '0'), '.') || 'Z',
      'updatedAt', rtrim(rtrim(to_char(sp.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US'), '0'), '.') || 'Z',
      'editMode', sp.edit_mode, 'mergeRules', sp.merge_rules,
      'urls', json_strip_nulls(json_build_object(
        'location', $4::text || '/v1/spaces/' || sp.id,
        'app', $4::text || '/app/o/' || sp.organization_id || '/s/' || sp.id,
        'icon', sp.icon)),
      'organization', sp.organization_id, 'revision', sp.revision_id, 'defaultLevel', sp.default_level,
      'comments', sp.comments, 'changeRequests', sp.change_requests,
      'changeRequestsOpen', sp.change_requests_open, 'changeRequestsDraft', sp.change_requests_draft,
      'permissions', json_build_object(
        'view', r.r >= 1, 'access', r.r >= 1, 'admin', r.r = 6, 'viewInviteLinks', r.r = 6,
        'edit', r.r >= 3, 'triggerGitSync', r.r >= 3, 'comment', r.r >= 2, 'merge', r.r >= 4,
        'review', r.r >= 4, 'installIntegration', r.r = 6)
    )::text AS req,
    json_strip_nulls(json_build_object(
      'deletedAt', rtrim(rtrim(to_char(sp.deleted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US'), '0'), '.') || 'Z',
      'parent', sp.parent_id, 'language', sp.language))::text AS opt
  ) s1
  CROSS JOIN LATERAL (SELECT
    json_build_object(
      'object', 'site-space', 'id', x.id, 'path', x.path, 'section', x.section_id,
      'space', (CASE WHEN s1.opt = '{}' THEN s1.req ELSE left(s1.req, -1) || ', ' || substr(s1.opt, 2) END)::json,
      'title', sp.title,
      'default', COALESCE(x.id = secs.default_site_space_id, false),
      'hasAdvancedCustomizationFeature', site.type = 'ultimate',
      'hidden', x.hidden,
      'urls', json_strip_nulls(json_build_object('published',
        CASE WHEN secs.url IS NULL THEN NULL
             WHEN x.id = secs.default_site_space_id THEN secs.url
             ELSE secs.url || '/' || x.path END))
    )::text AS req,
    json_strip_nulls(json_build_object('condition', x.condition))::text AS opt
  ) d
),
secdocs AS (
  SELECT q.position, q.id, CASE WHEN q.opt = '{}' THEN q.req ELSE left(q.req, -1) || ', ' || substr(q.opt, 2) END AS doc
  FROM (SELECT secs.position, secs.id,
      json_build_object(
        'object', 'site-section', 'id', secs.id, 'title', secs.title, 'default', secs.is_default, 'path', secs.path,
        'siteSpaces', COALESCE((SELECT json_agg(sss.doc::json ORDER BY sss.position COLLATE "C", sss.id COLLATE "C")
                                FROM sss WHERE sss.section_id = secs.id), '[]'::json),
        'urls', json_strip_nulls(json_build_object('published', secs.url)))::text AS req,
      json_strip_nulls(json_build_object('description', secs.description, 'condition', secs.condition,
        'sectionGroup', secs.group_id, 'icon', secs.icon))::text AS opt
    FROM secs) q
)
SELECT json_build_object(
  'object', 'published-content-site',
  'site', (CASE WHEN so.opt = '{}' THEN so.req ELSE left(so.req, -1) || ', ' || substr(so.opt, 2) END)::json,
  'structure', json_build_object('type', 'sections', 'structure', COALESCE((
    SELECT json_agg(secdocs.doc::json ORDER BY secdocs.position COLLATE "C", secdocs.id COLLATE "C") FROM secdocs), '[]'::json)),
  'customizations', json_build_object(
    'site', site.settings::json,
    'siteSpaces', COALESCE((SELECT json_object_agg(sss.id, sss.settings::json) FROM sss), '{}'::json)),
  'scripts', '[]'::json
)::text
FROM site
CROSS JOIN LATERAL (SELECT
  json_build_object(
    'object', 'site', 'id', site.id, 'type', site.type, 'appliedType', site.type, 'title', site.title,
    'basename', site.basename, 'visibility', site.visibility, 'published', site.published,
    'siteSpaces', (SELECT count(*) FROM site_spaces x WHERE x.site_id = site.id),
    'createdAt', rtrim(rtrim(to_char(site.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US'), '0'), '.') || 'Z',
    'adaptiveContent', json_build_object('enabled', site.adaptive_content),
    'ads', json_build_object('status', site.ads_status, 'submittable', site.published AND site.visibility = 'public'),
    'agentsContext', site.agents_context,
    'features', $6::json -> site.type,
    'urls', json_strip_nulls(json_build_object(
      'location', $4::text || '/v1/orgs/' || site.organization_id || '/sites/' || site.id,
      'app', $4::text || '/app/o/' || site.organization_id || '/sites/' || site.id,
      'published', site.pub_url))
  )::text AS req,
  json_strip_nulls(json_build_object(
    'hostname', site.hostname,
    'icon', NULLIF(jsonb_build_object(
      'icon', site.settings::jsonb -> 'favicon' -> 'icon',
      'emoji', NULLIF(site.settings::jsonb -> 'favicon' ->> 'emoji', '')), '{"icon": null, "emoji": null}'::jsonb)::json,
    'proxy', CASE WHEN site.proxy IS NOT NULL THEN json_build_object('origin', 'https://' || site.proxy,
      'target', CASE WHEN site.hostname IS NOT NULL THEN 'https://' || site.hostname
                     ELSE $4::text || '/s/' || site.organization_id || '/' || site.basename END) END))::text AS opt
) so`

// baselineSQLite is the same statement in SQLite's dialect: json_object,
// json_group_array and json_patch (which drops the optional keys whose
// value is null). Times are stored as Go's time.String() in UTC.
const baselineSQLite = `
WITH RECURSIVE viewer AS (
  SELECT m.role
  FROM api_tokens t JOIN members m ON m.user_id = t.user_id
  WHERE t.token_hash = ?1 AND m.organization_id = ?2 AND NOT m.disabled AND m.role IS NOT NULL
),
site AS MATERIALIZED (
  SELECT s.*,
    CASE WHEN s.published AND s.visibility <> 'share-link' THEN
      CASE WHEN s.hostname IS NOT NULL THEN 'https://' || s.hostname
           ELSE ?4 || '/s/' || s.organization_id || '/' || s.basename END
    END AS pub_url,
    COALESCE(CAST(s.customization AS TEXT), ?5) AS settings
  FROM sites s
  WHERE s.id = ?3 AND s.organization_id = ?2 AND EXISTS (SELECT 1 FROM viewer)
),
chain AS (
  SELECT sp.id AS space_id, sp.default_level AS level, sp.parent_id AS next, 0 AS depth
  FROM spaces sp
  WHERE sp.id IN (SELECT x.space_id FROM site_spaces x JOIN site ON x.site_id = site.id)
  UNION ALL
  SELECT c.space_id, col.default_level, col.parent_id, c.depth + 1
  FROM chain c JOIN collections col ON col.id = c.next
  WHERE c.level = 'inherit' AND c.depth <= 64
),
lvl AS MATERIALIZED (
  SELECT space_id,
    CASE WHEN (SELECT role FROM viewer) = 'admin' THEN 'admin'
         WHEN level = 'inherit' THEN (SELECT role FROM viewer)
         ELSE level END AS level,
    max(depth)
  FROM chain
  GROUP BY space_id
),
rnk AS MATERIALIZED (
  SELECT space_id, CASE level WHEN 'admin' THEN 6 WHEN 'create' THEN 5 WHEN 'review' THEN 4
    WHEN 'edit' THEN 3 WHEN 'comment' THEN 2 WHEN 'read' THEN 1 ELSE 0 END AS r
  FROM lvl
),
secs AS MATERIALIZED (
  SELECT sec.*, COALESCE(sec.id = site.default_section_id, 0) AS is_default,
    CASE WHEN site.pub_url IS NULL THEN NULL
         WHEN sec.id = site.default_section_id THEN site.pub_url
         ELSE site.pub_url || '/' || sec.path END AS url
  FROM site_sections sec JOIN site ON sec.site_id = site.id
),
sss AS MATERIALIZED (
  SELECT x.id, x.section_id, x.position,
    CASE WHEN x.customization IS NULL THEN site.settings
         ELSE json_patch(site.settings, CAST(x.customization AS TEXT)) END AS settings,
    json_patch(json_object(
      'object', 'site-space', 'id', x.id, 'path', x.path, 'section', x.section_id,
      'space', json_patch(json_object(
        'object', 'space', 'id', sp.id, 'title', sp.title, 'emoji', sp.emoji, 'visibility', sp.visibility,
        'createdAt', replace(substr(sp.created_at, 1, instr(sp.created_at, ' +') - 1), ' ', 'T') || 'Z',
        'updatedAt', replace(substr(sp.updated_at, 1, instr(sp.updated_at, ' +') - 1), ' ', 'T') || 'Z',
        'editMode', sp.edit_mode, 'mergeRules', json(sp.merge_rules),
        'urls', json_patch(json_object(
          'location', ?4 || '/v1/spaces/' || sp.id,
          'app', ?4 || '/app/o/' || sp.organization_id || '/s/' || sp.id), json_object('icon', sp.icon)),
        'organization', sp.organization_id, 'revision', sp.revision_id, 'defaultLevel', sp.default_level,
        'comments', sp.comments, 'changeRequests', sp.change_requests,
        'changeRequestsOpen', sp.change_requests_open, 'changeRequestsDraft', sp.change_requests_draft,
        'permissions', json_object(
          'view', json(iif(r.r >= 1, 'true', 'false')), 'access', json(iif(r.r >= 1, 'true', 'false')),
          'admin', json(iif(r.r = 6, 'true', 'false')), 'viewInviteLinks', json(iif(r.r = 6, 'true', 'false')),
          'edit', json(iif(r.r >= 3, 'true', 'false')), 'triggerGitSync', json(iif(r.r >= 3, 'true', 'false')),
          'comment', json(iif(r.r >= 2, 'true', 'false')), 'merge', json(iif(r.r >= 4, 'true', 'false')),
          'review', json(iif(r.r >= 4, 'true', 'false')), 'installIntegration', json(iif(r.r = 6, 'true', 'false')))
      ), json_object(
        'deletedAt', replace(substr(sp.deleted_at, 1, instr(sp.deleted_at, ' +') - 1), ' ', 'T') || 'Z',
        'parent', sp.parent_id, 'language', sp.language)),
      'title', sp.title,
      'default', json(iif(x.id IS secs.default_site_space_id, 'true', 'false')),
      'hasAdvancedCustomizationFeature', json(iif(site.type = 'ultimate', 'true', 'false')),
      'hidden', json(iif(x.hidden, 'true', 'false')),
      'urls', json_patch('{}', json_object('published',
        CASE WHEN secs.url IS NULL THEN NULL
             WHEN x.id = secs.default_site_space_id THEN secs.url
             ELSE secs.url || '/' || x.path END))
    ), json_object('condition', x.condition)) AS doc
  FROM site_spaces x
  JOIN site ON x.site_id = site.id
  JOIN secs ON secs.id = x.section_id
  JOIN spaces sp ON sp.id = x.space_id
  LEFT JOIN rnk r ON r.space_id = sp.id
)
SELECT json_object(
  'object', 'published-content-site',
  'site', json_patch(json_object(
    'object', 'site', 'id', site.id, 'type', site.type, 'appliedType', site.type, 'title', site.title,
    'basename', site.basename, 'visibility', site.visibility, 'published', json(iif(site.published, 'true', 'false')),
    'siteSpaces', (SELECT count(*) FROM site_spaces x WHERE x.site_id = site.id),
    'createdAt', replace(substr(site.created_at, 1, instr(site.created_at, ' +') - 1), ' ', 'T') || 'Z',
    'adaptiveContent', json_object('enabled', json(iif(site.adaptive_content, 'true', 'false'))),
    'ads', json_object('status', site.ads_status,
      'submittable', json(iif(site.published AND site.visibility = 'public', 'true', 'false'))),
    'agentsContext', site.agents_context,
    'features', json_extract(?6, '$."' || site.type || '"'),
    'urls', json_patch(json_object(
      'location', ?4 || '/v1/orgs/' || site.organization_id || '/sites/' || site.id,
      'app', ?4 || '/app/o/' || site.organization_id || '/sites/' || site.id), json_object('published', site.pub_url))
  ), json_object(
    'hostname', site.hostname,
    'icon', CASE WHEN json_extract(site.settings, '$.favicon.icon') IS NOT NULL
                   OR coalesce(json_extract(site.settings, '$.favicon.emoji'), '') <> ''
              THEN json_patch('{}', json_object(
                'icon', json_extract(site.settings, '$.favicon.icon'),
                'emoji', nullif(json_extract(site.settings, '$.favicon.emoji'), ''))) END,
    'proxy', CASE WHEN site.proxy IS NOT NULL THEN json_object('origin', 'https://' || site.proxy,
      'target', CASE WHEN site.hostname IS NOT NULL THEN 'https://' || site.hostname
                     ELSE ?4 || '/s/' || site.organization_id || '/' || site.basename END) END)),
  'structure', json_object('type', 'sections', 'structure', json(COALESCE((
    SELECT json_group_array(json(json_patch(json_object(
        'object', 'site-section', 'id', secs.id, 'title', secs.title,
        'default', json(iif(secs.is_default, 'true', 'false')), 'path', secs.path,
        'siteSpaces', json(COALESCE((SELECT json_group_array(json(sss.doc) ORDER BY sss.position, sss.id)
                                     FROM sss WHERE sss.section_id = secs.id), '[]')),
        'urls', json_patch('{}', json_object('published', secs.url))
      ), json_object('description', secs.description, 'condition', secs.condition,
             'sectionGroup', secs.group_id, 'icon', secs.icon)))
      ORDER BY secs.position, secs.id)
    FROM secs), '[]'))),
  'customizations', json_object(
    'site', json(site.settings),
    'siteSpaces', json(COALESCE((SELECT json_group_object(sss.id, json(sss.settings)) FROM sss), '{}'))),
  'scripts', json('[]')
)
FROM site`

// PublishedBaseline is the yardstick handler.
type PublishedBaseline struct {
	stmt      *sql.Stmt
	query     string
	publicURL string
	defaults  string // default customization settings, JSON
	features  string // site type → features, JSON
	// Statements counts the statements the handler sends (one a request).
	Statements atomic.Int64
}

func NewPublishedBaseline(ctx context.Context, sdb *sql.DB, dial, publicURL string) (*PublishedBaseline, error) {
	def, err := customization.Marshal(customization.Defaults())
	if err != nil {
		return nil, err
	}
	feats, err := json.Marshal(featuresByType())
	if err != nil {
		return nil, err
	}
	q := baselineSQLite
	if dial == dialect.Postgres {
		q = baselinePostgres
	}
	// Prepared once: on PostgreSQL this saves a round trip and, after a
	// few executions, the planning of every request (the SQLite driver
	// prepares each execution anyway).
	stmt, err := sdb.PrepareContext(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("prepare the published baseline statement: %w", err)
	}
	return &PublishedBaseline{stmt: stmt, query: q, publicURL: strings.TrimRight(publicURL, "/"), defaults: string(def), features: string(feats)}, nil
}

// featuresByType is the features table of graph.siteFeatures, by site type.
func featuresByType() map[string][]map[string]any {
	out := map[string][]map[string]any{}
	for _, typ := range []string{"basic", "premium", "ultimate", "sponsored", "legacy-basic", "legacy-premium"} {
		keys := []string{"sites-public-visibility", "sites-unlisted-visibility", "sites-share-links", "sites-sections",
			"sites-basic-customization", "sites-full-text-search", "sites-page-feedback", "sites-pdf-export"}
		switch typ {
		case "premium", "ultimate", "legacy-premium", "sponsored":
			keys = append(keys, "sites-custom-domain", "sites-custom-subdirectory", "sites-visitor-authentication",
				"sites-adaptive-content", "sites-multivariant-site", "sites-redirects", "sites-seo", "sites-ai-search")
		}
		if typ == "ultimate" {
			keys = append(keys, "sites-advanced-customization", "sites-custom-fonts", "sites-ai-assistant", "sites-advanced-insights")
		}
		for _, k := range keys {
			out[typ] = append(out[typ], map[string]any{"id": k, "plan": typ, "frozen": false})
		}
	}
	return out
}

// ServeHTTP answers GET /v1/orgs/{org}/sites/{site}/published.
func (b *PublishedBaseline) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	if r.Method != http.MethodGet || len(parts) != 6 || parts[0] != "v1" || parts[1] != "orgs" || parts[3] != "sites" || parts[5] != "published" {
		http.Error(w, `{"error":{"code":404,"message":"not found"}}`, http.StatusNotFound)
		return
	}
	secret := auth.BearerToken(r.Header.Get("Authorization"))
	if secret == "" {
		http.Error(w, `{"error":{"code":401,"message":"Authentication required"}}`, http.StatusUnauthorized)
		return
	}
	var doc string
	b.Statements.Add(1)
	err := b.stmt.QueryRowContext(r.Context(), auth.Hash(secret), parts[2], parts[4], b.publicURL, b.defaults, b.features).Scan(&doc)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		http.Error(w, `{"error":{"code":404,"message":"No matching site found"}}`, http.StatusNotFound)
		return
	case err != nil:
		msg, _ := json.Marshal(err.Error())
		http.Error(w, `{"error":{"code":500,"message":`+string(msg)+`}}`, http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(doc))
}
