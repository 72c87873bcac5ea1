package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"quire/internal/benchkit"
)

// peerVersion is the PostGraphile release measured.
const peerVersion = "postgraphile@5.1.5"

// peerSchema copies the rows the site query reads into plain tables of a
// schema of PostGraphile's own, with primary keys, foreign keys (the
// relations it exposes) and an index on every foreign key. Positions sort
// as Quire sorts them (byte order), and are indexed: the amber preset
// offers orderBy only on indexed columns.
const peerSchema = `
DROP SCHEMA IF EXISTS peer CASCADE;
CREATE SCHEMA peer;
CREATE TABLE peer.organizations AS SELECT id, title FROM public.organizations;
CREATE TABLE peer.spaces AS SELECT id, organization_id, title, visibility FROM public.spaces WHERE deleted_at IS NULL;
CREATE TABLE peer.sites AS SELECT id, organization_id, title, hostname FROM public.sites;
CREATE TABLE peer.site_sections AS SELECT id, site_id, title, path, position COLLATE "C" AS position FROM public.site_sections;
CREATE TABLE peer.site_spaces AS SELECT id, site_id, section_id, space_id, path, position COLLATE "C" AS position FROM public.site_spaces;
ALTER TABLE peer.organizations ADD PRIMARY KEY (id);
ALTER TABLE peer.spaces ADD PRIMARY KEY (id), ADD FOREIGN KEY (organization_id) REFERENCES peer.organizations;
ALTER TABLE peer.sites ADD PRIMARY KEY (id), ADD FOREIGN KEY (organization_id) REFERENCES peer.organizations;
ALTER TABLE peer.site_sections ADD PRIMARY KEY (id), ADD FOREIGN KEY (site_id) REFERENCES peer.sites;
ALTER TABLE peer.site_spaces ADD PRIMARY KEY (id), ADD FOREIGN KEY (site_id) REFERENCES peer.sites,
  ADD FOREIGN KEY (section_id) REFERENCES peer.site_sections, ADD FOREIGN KEY (space_id) REFERENCES peer.spaces;
CREATE INDEX ON peer.spaces (organization_id);
CREATE INDEX ON peer.sites (organization_id);
CREATE INDEX ON peer.site_sections (site_id);
CREATE INDEX ON peer.site_spaces (site_id);
CREATE INDEX ON peer.site_spaces (section_id);
CREATE INDEX ON peer.site_spaces (space_id);
CREATE INDEX ON peer.site_sections (position);
CREATE INDEX ON peer.site_spaces (position);
ANALYZE peer.organizations, peer.spaces, peer.sites, peer.site_sections, peer.site_spaces;
`

// peerQuery is siteQuery in the names PostGraphile's amber preset gives
// the tables and relations (checked against its schema at start; its id is
// the global Node id, the column is rowId), aliased to Quire's names so
// that the answers have the same shape, with the connections ordered as
// Quire orders them.
const peerQuery = `query Site($id: String!) { site: siteByRowId(rowId: $id) { id: rowId title hostname organization: organizationByOrganizationId { id: rowId title } sections: siteSectionsBySiteId(first: 100, orderBy: [POSITION_ASC, PRIMARY_KEY_ASC]) { nodes { id: rowId title path siteSpaces: siteSpacesBySectionId(first: 100, orderBy: [POSITION_ASC, PRIMARY_KEY_ASC]) { nodes { id: rowId path space: spaceBySpaceId { id: rowId title visibility } } } } } } }`

// installPeer installs PostGraphile with npm into dir (unless it is there)
// and returns the path of its command-line entry point.
func installPeer(ctx context.Context, dir string) (string, error) {
	cli := filepath.Join(dir, "node_modules", "postgraphile", "dist", "cli-run.js")
	if _, err := os.Stat(cli); err == nil {
		return cli, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	logf("npm install %s into %s", peerVersion, dir)
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	cmd := execCommand(ctx, dir, "npm", "install", "--no-audit", "--no-fund", "--silent", peerVersion)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("npm install %s: %v\n%s", peerVersion, err, out)
	}
	if _, err := os.Stat(cli); err != nil {
		return "", fmt.Errorf("npm installed no %s: %w", cli, err)
	}
	return cli, nil
}

// startPeer starts PostGraphile (amber preset) on a free loopback port over
// the peer schema, and waits until it answers GraphQL.
func startPeer(ctx context.Context, e *env, dir, cli string) (*benchkit.Proc, error) {
	port, err := benchkit.FreePort()
	if err != nil {
		return nil, err
	}
	base := "http://127.0.0.1:" + strconv.Itoa(port)
	ready := func([]byte) string {
		c, cancel := context.WithTimeout(ctx, 2*time.Second)
		defer cancel()
		if _, err := postJSON(c, base+"/graphql", []byte(`{"query":"{ __typename }"}`)); err == nil {
			return base
		}
		return ""
	}
	env := append(benchkit.ProductionEnv(), "NODE_ENV=production")
	argv := []string{"node"}
	if nodeMajor(ctx) < 22 {
		// PostGraphile 5 asks for Node 22; on older Node it needs
		// Promise.withResolvers (Node 22), which this adds.
		shim := filepath.Join(e.tmp, "node22-shim.cjs")
		if err := os.WriteFile(shim, []byte(node22Shim), 0o644); err != nil {
			return nil, err
		}
		argv = append(argv, "--require", shim)
		peerShimmed = true
	}
	return benchkit.StartProc(ctx, "postgraphile", filepath.Join(e.tmp, "postgraphile.log"), env, dir, ready,
		append(argv, cli, "-P", "postgraphile/presets/amber", "-c", e.pgURL, "-s", "peer", "-p", strconv.Itoa(port), "-n", "127.0.0.1")...)
}

// peerShimmed tells that PostGraphile runs with node22Shim.
var peerShimmed bool

// node22Shim adds Promise.withResolvers where Node lacks it.
const node22Shim = `if (typeof Promise.withResolvers !== "function") {
  Promise.withResolvers = function () {
    let resolve, reject;
    const promise = new this((res, rej) => { resolve = res; reject = rej; });
    return { promise, resolve, reject };
  };
}
`

// nodeMajor is the major version of the installed Node (0: unknown).
func nodeMajor(ctx context.Context) int {
	v := strings.TrimPrefix(nodeVersion(ctx), "v")
	major, _, _ := strings.Cut(v, ".")
	n, _ := strconv.Atoi(major)
	return n
}

func postJSON(ctx context.Context, u string, body []byte) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, "POST", u, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK || bytes.Contains(b, []byte(`"errors"`)) {
		return nil, fmt.Errorf("status %d: %s", resp.StatusCode, benchkit.Truncate(b, 500))
	}
	return b, nil
}

// checkPeerSchema checks that PostGraphile's schema has the fields
// peerQuery names, and lists each type's fields when it does not.
func checkPeerSchema(ctx context.Context, base string) error {
	want := map[string][]string{
		"Query":       {"siteByRowId"},
		"Site":        {"organizationByOrganizationId", "siteSectionsBySiteId"},
		"SiteSection": {"siteSpacesBySectionId"},
		"SiteSpace":   {"spaceBySpaceId"},
	}
	for typ, fields := range want {
		b, err := postJSON(ctx, base+"/graphql", fmt.Appendf(nil, `{"query":"{ __type(name: \"%s\") { fields { name } } }"}`, typ))
		if err != nil {
			return err
		}
		var v struct {
			Data struct {
				Type *struct {
					Fields []struct{ Name string } `json:"fields"`
				} `json:"__type"`
			} `json:"data"`
		}
		if err := json.Unmarshal(b, &v); err != nil {
			return err
		}
		if v.Data.Type == nil {
			return fmt.Errorf("PostGraphile's schema has no type %s", typ)
		}
		var have []string
		for _, f := range v.Data.Type.Fields {
			have = append(have, f.Name)
		}
		for _, f := range fields {
			if !slices.Contains(have, f) {
				return fmt.Errorf("PostGraphile's %s has no field %s; it has %s", typ, f, strings.Join(have, ", "))
			}
		}
	}
	return nil
}

// peer compares graphql-site (and REST's published profile) with
// PostGraphile's answer to the same query, the servers alternately.
func peer(ctx context.Context, e *env, o options, w io.Writer) error {
	if _, err := e.d.SQL.ExecContext(ctx, peerSchema); err != nil {
		return fmt.Errorf("copy the rows into the peer schema: %w", err)
	}
	dir := o.postgraphile
	if dir == "" {
		dir = filepath.Join(e.tmp, "postgraphile")
	}
	cli, err := installPeer(ctx, dir)
	if err != nil {
		return err
	}
	pg, err := startPeer(ctx, e, dir, cli)
	if err != nil {
		return err
	}
	defer pg.Stop()
	if err := checkPeerSchema(ctx, pg.Base); err != nil {
		return err
	}
	s := &e.seeded
	qgql, qrest := siteTargets(s, e.quire.Base+"/graphql", e.quire.Base)
	pgql := benchkit.Target{Name: "PostGraphile graphql-site", Method: "POST", URL: pg.Base + "/graphql", Token: s.token,
		Vary: pick(s.sites, 1, func(id string) (string, []byte) { return pg.Base + "/graphql", graphQLBody(peerQuery, "Site", id) })}
	qgql.Name, qrest.Name = "quire graphql-site", "quire rest-site"

	// Once: both answers name the same objects, and warm-up.
	var notes []string
	for n := range 3 {
		qa, err := send(ctx, qgql, n)
		if err != nil {
			return err
		}
		pa, err := send(ctx, pgql, n)
		if err != nil {
			log, _ := os.ReadFile(pg.LogPath)
			return fmt.Errorf("PostGraphile: %w\nits log:\n%s", err, benchkit.Truncate(log, 3000))
		}
		if d := sameObjects(qa, pa); d != "" {
			return fmt.Errorf("quire and PostGraphile answer about different objects: %s", d)
		}
		if n == 0 {
			notes = append(notes, fmt.Sprintf("the two answers to the same site carry the same ids and titles (quire %d bytes, PostGraphile %d bytes)", len(qa), len(pa)))
		}
	}
	for _, t := range []benchkit.Target{qgql, qrest, pgql} {
		for n := range 50 {
			if _, err := send(ctx, t, n); err != nil {
				return err
			}
		}
	}

	type key struct {
		name  string
		conns int
	}
	runs := map[key][]line{}
	procs := map[string]*benchkit.Proc{qgql.Name: e.quire, qrest.Name: e.quire, pgql.Name: pg}
	for _, c := range o.conns {
		for range o.rounds {
			for _, t := range []benchkit.Target{qgql, pgql, qrest} {
				res, rss, err := load(ctx, procs[t.Name], t, c, o.duration)
				if err != nil {
					return err
				}
				runs[key{t.Name, c}] = append(runs[key{t.Name, c}], line{workload: t.Name, conns: c, res: res, rss: rss})
			}
		}
	}
	fmt.Fprintf(w, "peer: %s, amber preset, `postgraphile -P postgraphile/presets/amber -c URL -s peer`, Node %s, NODE_ENV=production, over schema peer (a copy of the rows with primary keys, foreign keys and their indexes)\n\n", peerVersion, nodeVersion(ctx))
	fmt.Fprintf(w, "%d round(s) per setting, the servers alternately; each line is the round with the median req/s\n\n", o.rounds)
	fmt.Fprintln(w, "| conns | server: workload | req/s | p50 | p99 | server RSS (max) | quire ÷ PostGraphile (req/s) | requests (errors) / run |")
	fmt.Fprintln(w, "|---:|---|---:|---:|---:|---:|---:|---:|")
	for _, c := range o.conns {
		p := median(runs[key{pgql.Name, c}])
		for _, name := range []string{qgql.Name, pgql.Name, qrest.Name} {
			l := median(runs[key{name, c}])
			ratio := "—"
			if name != pgql.Name && p.res.RPS() > 0 {
				ratio = fmt.Sprintf("%.2f", l.res.RPS()/p.res.RPS())
			}
			fmt.Fprintf(w, "| %d | %s | %s | %s | %s | %s | %s | %d (%d) / %.1fs |\n", c, name, rps(l.res.RPS()), ms(l.res.P50), ms(l.res.P99), mib(l.rss), ratio, l.res.Requests, l.res.Errors, l.res.Elapsed.Seconds())
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "- quire graphql-site: `%s`\n", chosenSiteQuery)
	fmt.Fprintf(w, "- PostGraphile graphql-site: `%s`\n", peerQuery)
	fmt.Fprintln(w, "- quire rest-site: GET /v1/orgs/{org}/sites/{site}/published (the whole published profile: more fields, customizations, permissions), against PostGraphile's graphql-site")
	fmt.Fprintln(w, "- quire checks the bearer token and the caller's permissions on every object; PostGraphile serves the peer schema without authentication")
	if peerShimmed {
		fmt.Fprintln(w, "- PostGraphile 5 asks for Node 22; on this Node it runs with `--require` of a shim adding Promise.withResolvers (the one Node 22 function it was seen to miss)")
	}
	for _, n := range notes {
		fmt.Fprintln(w, "- "+n)
	}
	fmt.Fprintln(w)
	return nil
}

func nodeVersion(ctx context.Context) string {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	out, err := execCommand(ctx, "", "node", "--version").Output()
	if err != nil {
		return "unknown"
	}
	return strings.TrimSpace(string(out))
}

// execCommand is a command bounded by ctx, run in dir.
func execCommand(ctx context.Context, dir, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.WaitDelay = 5 * time.Second
	return cmd
}
