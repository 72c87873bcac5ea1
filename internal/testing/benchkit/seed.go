package benchkit

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"quire/internal/auth"
	"quire/internal/db"
	"quire/internal/testing/testclient"
	"quire/internal/types"
)

// Truncate clips b to n bytes for messages, marking the cut.
func Truncate(b []byte, n int) string {
	if len(b) <= n {
		return string(b)
	}
	return string(b[:n]) + "..."
}

// SeedAdmin creates an organization, an admin user and an API token
// directly in the database, as "quire admin bootstrap" does.
func SeedAdmin(ctx context.Context, d *db.DB) (orgID, userID, token string, err error) {
	org, err := d.Client.Organization.Create().SetTitle("Bench Corp").Save(ctx)
	if err != nil {
		return "", "", "", fmt.Errorf("create organization: %w", err)
	}
	u, err := d.Client.User.Create().SetEmail("bench@bench.test").SetDisplayName("bench").Save(ctx)
	if err != nil {
		return "", "", "", fmt.Errorf("create user: %w", err)
	}
	if _, err := d.Client.Member.Create().SetOrganizationID(org.ID).SetUserID(u.ID).SetRole(types.RoleAdmin).Save(ctx); err != nil {
		return "", "", "", fmt.Errorf("create member: %w", err)
	}
	token, err = auth.CreateToken(ctx, d.Client, u.ID, "bench")
	if err != nil {
		return "", "", "", err
	}
	return org.ID, u.ID, token, nil
}

// SiteSize is the shape of a benchmarked site.
type SiteSize struct {
	Sections, SiteSpaces int // site spaces per section
}

func (s SiteSize) String() string { return fmt.Sprintf("%d×%d", s.Sections, s.SiteSpaces) }

// SeedSite creates, through Quire's REST API, one collection per section
// holding that section's spaces, a site with the sections and site spaces,
// and publishes it. It returns the site id. name tells the site's
// collections and sections apart from other sites'.
func SeedSite(ctx context.Context, c *testclient.Client, orgID string, size SiteSize, name string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	type idOut struct {
		ID string `json:"id"`
	}
	spaces := make([][]string, size.Sections)
	for i := range size.Sections {
		var col idOut
		if err := c.Expect(ctx, "POST", "/v1/orgs/"+orgID+"/collections", map[string]any{
			"title": fmt.Sprintf("Product %d (%s)", i+1, name),
		}, http.StatusCreated, &col); err != nil {
			return "", err
		}
		for j := range size.SiteSpaces {
			var sp idOut
			if err := c.Expect(ctx, "POST", "/v1/orgs/"+orgID+"/spaces", map[string]any{
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
	if err := c.Expect(ctx, "POST", "/v1/orgs/"+orgID+"/sites", map[string]any{
		"title": "Docs " + name,
	}, http.StatusCreated, &site); err != nil {
		return "", err
	}
	sp := "/v1/orgs/" + orgID + "/sites/" + site.ID
	for i := range size.Sections {
		var sec idOut
		if err := c.Expect(ctx, "POST", sp+"/sections", map[string]any{
			"spaceId": spaces[i][0],
			"title":   fmt.Sprintf("Product %d", i+1),
		}, http.StatusCreated, &sec); err != nil {
			return "", err
		}
		for _, spaceID := range spaces[i][1:] {
			if err := c.Expect(ctx, "POST", sp+"/site-spaces", map[string]any{
				"spaceId":   spaceID,
				"sectionId": sec.ID,
			}, http.StatusCreated, nil); err != nil {
				return "", err
			}
		}
	}
	if err := c.Expect(ctx, "POST", sp+"/publish", nil, http.StatusOK, nil); err != nil {
		return "", err
	}
	return site.ID, nil
}
