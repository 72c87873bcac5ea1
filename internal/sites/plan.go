package sites

import "quire/ent"

// FeatureKeys lists the features a site's plan (its type) includes.
func FeatureKeys(siteType string) []string {
	keys := []string{"sites-public-visibility", "sites-unlisted-visibility", "sites-share-links", "sites-sections",
		"sites-basic-customization", "sites-full-text-search", "sites-page-feedback", "sites-pdf-export"}
	switch siteType {
	case "premium", "ultimate", "legacy-premium", "sponsored":
		keys = append(keys, "sites-custom-domain", "sites-custom-subdirectory", "sites-visitor-authentication",
			"sites-adaptive-content", "sites-multivariant-site", "sites-redirects", "sites-seo", "sites-ai-search")
	}
	if siteType == "ultimate" {
		keys = append(keys, "sites-advanced-customization", "sites-custom-fonts", "sites-ai-assistant", "sites-advanced-insights")
	}
	return keys
}

// AdsSubmittable reports whether a site may be submitted for ads: it must
// be published and public.
func AdsSubmittable(st *ent.Site) bool { return st.Published && st.Visibility == "public" }

// AdvancedCustomization reports whether a site's plan allows advanced
// customization of its site spaces.
func AdvancedCustomization(st *ent.Site) bool { return st.Type == "ultimate" }
