package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	"quire/internal/auth"
	"quire/internal/db"
	"quire/internal/types"
)

// apiClient talks to a Quire server over HTTP with one token.
type apiClient struct {
	base  string
	token string
	http  *http.Client
}

// do sends a request and decodes a JSON answer into out (if not nil). It
// fails unless the status is want.
func (c *apiClient) do(ctx context.Context, method, path string, body any, want int, out any) error {
	var rd io.Reader
	if body != nil {
		buf, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(buf)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, rd)
	if err != nil {
		return err
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	buf, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("%s %s: read body: %w", method, path, err)
	}
	if resp.StatusCode != want {
		return fmt.Errorf("%s %s: status %d, want %d: %s", method, path, resp.StatusCode, want, truncate(buf, 300))
	}
	if out != nil {
		if err := json.Unmarshal(buf, out); err != nil {
			return fmt.Errorf("%s %s: decode %s: %w", method, path, truncate(buf, 300), err)
		}
	}
	return nil
}

func truncate(b []byte, n int) string {
	if len(b) <= n {
		return string(b)
	}
	return string(b[:n]) + "..."
}

// seedAdmin creates an organization, an admin user and an API token
// directly in the database, as "quire admin bootstrap" does.
func seedAdmin(ctx context.Context, d *db.DB) (orgID, token string, err error) {
	org, err := d.Client.Organization.Create().SetTitle("Bench Corp").Save(ctx)
	if err != nil {
		return "", "", fmt.Errorf("create organization: %w", err)
	}
	u, err := d.Client.User.Create().SetEmail("bench@bench.test").SetDisplayName("bench").Save(ctx)
	if err != nil {
		return "", "", fmt.Errorf("create user: %w", err)
	}
	if _, err := d.Client.Member.Create().SetOrganizationID(org.ID).SetUserID(u.ID).SetRole(types.RoleAdmin).Save(ctx); err != nil {
		return "", "", fmt.Errorf("create member: %w", err)
	}
	token, err = auth.CreateToken(ctx, d.Client, u.ID, "sitebench")
	if err != nil {
		return "", "", err
	}
	return org.ID, token, nil
}

// siteSize is the shape of a benchmarked site.
type siteSize struct {
	Sections, SiteSpaces int // site spaces per section
}

func (s siteSize) String() string { return fmt.Sprintf("%d×%d", s.Sections, s.SiteSpaces) }

// seedSite creates, through Quire's REST API, one collection per section
// holding that section's spaces, a site with the sections and site spaces,
// and publishes it. It returns the site id.
func seedSite(ctx context.Context, c *apiClient, orgID string, size siteSize) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	type idOut struct {
		ID string `json:"id"`
	}
	spaces := make([][]string, size.Sections)
	for i := range size.Sections {
		var col idOut
		if err := c.do(ctx, "POST", "/v1/orgs/"+orgID+"/collections", map[string]any{
			"title": fmt.Sprintf("Product %d (%s)", i+1, size),
		}, http.StatusCreated, &col); err != nil {
			return "", err
		}
		for j := range size.SiteSpaces {
			var sp idOut
			if err := c.do(ctx, "POST", "/v1/orgs/"+orgID+"/spaces", map[string]any{
				"title":  fmt.Sprintf("Guide %d.%d", i+1, j+1),
				"emoji":  "📘",
				"parent": col.ID,
			}, http.StatusCreated, &sp); err != nil {
				return "", err
			}
			spaces[i] = append(spaces[i], sp.ID)
		}
	}
	var site idOut
	if err := c.do(ctx, "POST", "/v1/orgs/"+orgID+"/sites", map[string]any{
		"title": fmt.Sprintf("Docs %s", size),
	}, http.StatusCreated, &site); err != nil {
		return "", err
	}
	sp := "/v1/orgs/" + orgID + "/sites/" + site.ID
	for i := range size.Sections {
		var sec idOut
		if err := c.do(ctx, "POST", sp+"/sections", map[string]any{
			"spaceId": spaces[i][0],
			"title":   fmt.Sprintf("Product %d", i+1),
		}, http.StatusCreated, &sec); err != nil {
			return "", err
		}
		for _, spaceID := range spaces[i][1:] {
			if err := c.do(ctx, "POST", sp+"/site-spaces", map[string]any{
				"spaceId":   spaceID,
				"sectionId": sec.ID,
			}, http.StatusCreated, nil); err != nil {
				return "", err
			}
		}
	}
	if err := c.do(ctx, "POST", sp+"/publish", nil, http.StatusOK, nil); err != nil {
		return "", err
	}
	return site.ID, nil
}
