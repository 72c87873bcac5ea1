package benchkit

import (
	"context"
	"encoding/xml"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"time"

	"quire/internal/content"
	"quire/internal/db"
	"quire/internal/jobs"
	"quire/internal/testing/testclient"
	"quire/server/app"
)

// ReaderTree is a space of pages pages (groups included, as a space's
// limit counts them) as a docs team writes them: root groups of 25
// document pages, in which every fifth page has the
// next four below it and the last of those one more level below, each
// page 3 to 8 KB of Markdown with headings, paragraphs, lists, a table and
// code blocks. The same pages and seed give the same tree.
func ReaderTree(pages int, seed uint64) *content.Tree {
	r := rand.New(rand.NewPCG(seed, 17))
	tree := &content.Tree{}
	var group, top, mid *content.TreePage
	for i, n := 0, 0; n < pages; i, n = i+1, n+1 {
		if i%25 == 0 {
			group = &content.TreePage{Type: "group", Title: fmt.Sprintf("%s %d", pick(r, topics), i/25+1)}
			tree.Pages = append(tree.Pages, group)
			if n++; n == pages {
				break
			}
		}
		md := readerMarkdown(r)
		p := &content.TreePage{Title: fmt.Sprintf("%s %s %d", pick(r, verbs), pick(r, topics), i+1),
			Description: sentence(r, 8), Markdown: &md}
		switch {
		case i%5 == 0:
			group.Pages = append(group.Pages, p)
			top = p
		case i%5 == 4 && mid != nil:
			mid.Pages = append(mid.Pages, p)
		default:
			top.Pages = append(top.Pages, p)
			mid = p
		}
	}
	return tree
}

var (
	topics = strings.Fields("Installation Configuration Webhooks Tokens Backups Clusters Proxies Caching Indexes Releases Migrations Queries Search Storage Teams Billing Exports Imports Themes Domains")
	verbs  = strings.Fields("Set up Tune Monitor Secure Scale Debug Upgrade Automate Review Plan")
	words  = strings.Fields("the server reads each request and answers with the page it keeps in memory while a worker " +
		"writes revisions to the database so that readers see a consistent site after every merge of a change request " +
		"configure deploy token webhook cluster backup release upgrade migrate query index cache proxy latency replica")
	langs = []string{"go", "sh", "yaml", "json", "python"}
)

func pick(r *rand.Rand, list []string) string { return list[r.IntN(len(list))] }

func sentence(r *rand.Rand, n int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = pick(r, words)
	}
	return strings.ToUpper(w[0][:1]) + strings.Join(w, " ")[1:] + "."
}

// readerMarkdown is one page's Markdown: 3 to 8 KB.
func readerMarkdown(r *rand.Rand) string {
	var b strings.Builder
	target := 3000 + r.IntN(5000)
	for sec := 1; b.Len() < target; sec++ {
		fmt.Fprintf(&b, "## %s %s\n\n", pick(r, verbs), pick(r, topics))
		for range 2 {
			for range 4 + r.IntN(4) {
				b.WriteString(sentence(r, 8+r.IntN(10)) + " ")
			}
			b.WriteString("\n\n")
		}
		switch sec % 3 {
		case 0:
			for i := range 3 + r.IntN(4) {
				fmt.Fprintf(&b, "%d. %s\n", i+1, sentence(r, 6+r.IntN(6)))
			}
		case 1:
			for range 3 + r.IntN(4) {
				fmt.Fprintf(&b, "- **%s**: %s\n", pick(r, words), sentence(r, 6+r.IntN(6)))
			}
		case 2:
			b.WriteString("| Setting | Default | Meaning |\n| --- | --- | --- |\n")
			for range 3 + r.IntN(5) {
				fmt.Fprintf(&b, "| `%s_%s` | %d | %s |\n", pick(r, words), pick(r, words), r.IntN(1000), sentence(r, 6))
			}
		}
		b.WriteString("\n")
		lang := pick(r, langs)
		fmt.Fprintf(&b, "### Example\n\n```%s\n", lang)
		for range 4 + r.IntN(8) {
			fmt.Fprintf(&b, "%s(%q, %d) // %s\n", pick(r, words), pick(r, words), r.IntN(100), sentence(r, 4))
		}
		b.WriteString("```\n\n")
	}
	return b.String()
}

// SeedReaderSite creates, through Quire's REST API (api, as the
// organization's admin), a space, writes the tree into it through the
// content engine (as a Git import does: one revision, indexed for search)
// and publishes a public site serving that space. It returns the site's
// path below Quire's public URL (/s/{org}/{basename}).
func SeedReaderSite(ctx context.Context, api *testclient.Client, d *db.DB, orgID, userID string, tree *content.Tree, title string) (string, error) {
	type out struct {
		ID   string `json:"id"`
		URLs struct {
			Published string `json:"published"`
		} `json:"urls"`
	}
	var sp out
	if err := api.Expect(ctx, "POST", "/v1/orgs/"+orgID+"/spaces", map[string]any{"title": title}, http.StatusCreated, &sp); err != nil {
		return "", err
	}
	u, err := d.Client.User.Get(ctx, userID)
	if err != nil {
		return "", err
	}
	eng := app.New(ctx, d, app.Config{PublicURL: api.Base})
	defer eng.Close()
	if _, err := eng.Content.WriteTree(jobs.NewContext(ctx, d.Client, u), sp.ID, tree, content.TreeOptions{}); err != nil {
		return "", fmt.Errorf("write the pages of %s: %w", title, err)
	}
	var site out
	sites := "/v1/orgs/" + orgID + "/sites"
	if err := api.Expect(ctx, "POST", sites, map[string]any{"title": title, "visibility": "public"}, http.StatusCreated, &site); err != nil {
		return "", err
	}
	if err := api.Expect(ctx, "POST", sites+"/"+site.ID+"/site-spaces", map[string]any{"spaceId": sp.ID}, http.StatusCreated, nil); err != nil {
		return "", err
	}
	if err := api.Expect(ctx, "POST", sites+"/"+site.ID+"/publish", nil, http.StatusOK, nil); err != nil {
		return "", err
	}
	if err := api.Expect(ctx, "GET", sites+"/"+site.ID, nil, http.StatusOK, &site); err != nil {
		return "", err
	}
	pu, err := url.Parse(site.URLs.Published)
	if err != nil || pu.Path == "" {
		return "", fmt.Errorf("site %s: published URL %q", site.ID, site.URLs.Published)
	}
	return pu.Path, nil
}

// SitemapPaths reads a published site's sitemap.xml from base (a Quire
// server) and returns the paths of the pages it lists, in its order.
func SitemapPaths(ctx context.Context, base, sitePath string) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	resp, err := (&testclient.Client{Base: base}).Send(ctx, "GET", sitePath+"/sitemap.xml", nil)
	if err != nil {
		return nil, err
	}
	if resp.Status != http.StatusOK {
		return nil, fmt.Errorf("%s/sitemap.xml: status %d", sitePath, resp.Status)
	}
	var sm struct {
		URLs []struct {
			Loc string `xml:"loc"`
		} `xml:"url"`
	}
	if err := xml.Unmarshal(resp.Body, &sm); err != nil {
		return nil, fmt.Errorf("%s/sitemap.xml: %w", sitePath, err)
	}
	var out []string
	for _, u := range sm.URLs {
		p, err := url.Parse(u.Loc)
		if err != nil {
			return nil, fmt.Errorf("sitemap location %q: %w", u.Loc, err)
		}
		out = append(out, p.Path)
	}
	return out, nil
}
