// Package customization holds the look-and-feel settings of a docs site and
// the per-site-space overrides of those settings, in the JSON shape of the
// public API (GET/PUT /orgs/{org}/sites/{site}/customization and
// GET/PATCH/DELETE .../site-spaces/{siteSpace}/customization).
//
// # Shapes
//
// [Settings] is the complete settings object of a site: every key the API
// marks as required is a non-pointer field and is always present in its
// JSON. [SpaceSettings] is what a site space overrides: every key is
// optional, and an absent key means "show the site's value". [Effective]
// lays an override over the site settings, which is what a published site
// space shows and what the site-space GET returns.
//
// # Decoding
//
// Request bodies are never unmarshaled straight into the structs. They are
// parsed into a generic JSON tree, merged, checked against the rules of
// this package (schema.go, rules.go) and only then turned into structs, so
// that every failure is an [apierr.Invalid] naming the JSON path of the
// offending field ("styling.primaryColor.light", "header.links[0].to.url")
// and so that unknown keys are refused rather than silently dropped.
//
// A PUT of the whole site settings ([Decode]) is merged over [Defaults]:
// a client may send only the keys it cares about, and a required key it
// leaves out (or sends as null) gets its default value. Objects merge key by
// key; arrays and the union-typed values (favicon, fonts, content
// references) are replaced whole, since merging two variants of a union
// produces neither.
//
// [MergePatch] applies a JSON merge patch (RFC 7396) to existing settings,
// with null restoring a key's default. [PatchSpace] applies the
// site-space PATCH body to a stored override, with null removing the
// override of that key so that the site's value shows again.
package customization
