package document

import (
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"
)

// Content reference kinds.
const (
	RefFile            = "file"
	RefURL             = "url"
	RefPage            = "page"
	RefAnchor          = "anchor"
	RefUser            = "user"
	RefCollection      = "collection"
	RefSpace           = "space"
	RefReusableContent = "reusable-content"
	RefOpenAPI         = "openapi"
)

// ContentRef points at something a link, content-ref, image or file block
// refers to. Which fields are used depends on Kind.
type ContentRef struct {
	Kind            string `json:"kind"`
	URL             string `json:"url,omitempty"`             // url
	File            string `json:"file,omitempty"`            // file
	Page            string `json:"page,omitempty"`            // page; optional for anchor
	Anchor          string `json:"anchor,omitempty"`          // anchor
	Space           string `json:"space,omitempty"`           // space; optional for page, anchor, reusable-content
	User            string `json:"user,omitempty"`            // user
	Collection      string `json:"collection,omitempty"`      // collection
	ReusableContent string `json:"reusableContent,omitempty"` // reusable-content
	Spec            string `json:"spec,omitempty"`            // openapi
}

// refIDField is the required identifying field of each kind.
var refIDField = map[string]string{
	RefFile:            "file",
	RefURL:             "url",
	RefPage:            "page",
	RefAnchor:          "anchor",
	RefUser:            "user",
	RefCollection:      "collection",
	RefSpace:           "space",
	RefReusableContent: "reusableContent",
	RefOpenAPI:         "spec",
}

// Map returns the reference as decoded-JSON data, holding only the fields
// its kind uses.
func (r ContentRef) Map() map[string]any {
	m := map[string]any{"kind": r.Kind}
	set := func(k, v string, always bool) {
		if v != "" || always {
			m[k] = v
		}
	}
	switch r.Kind {
	case RefURL:
		set("url", r.URL, true)
	case RefFile:
		set("file", r.File, true)
	case RefPage:
		set("page", r.Page, true)
		set("space", r.Space, false)
	case RefAnchor:
		set("anchor", r.Anchor, true)
		set("page", r.Page, false)
		set("space", r.Space, false)
	case RefUser:
		set("user", r.User, true)
	case RefCollection:
		set("collection", r.Collection, true)
	case RefSpace:
		set("space", r.Space, true)
	case RefReusableContent:
		set("reusableContent", r.ReusableContent, true)
		set("space", r.Space, false)
	case RefOpenAPI:
		set("spec", r.Spec, true)
	}
	return m
}

func refFromAny(v any) (ContentRef, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return ContentRef{}, false
	}
	s := func(k string) string { x, _ := m[k].(string); return x }
	r := ContentRef{
		Kind: s("kind"), URL: s("url"), File: s("file"), Page: s("page"), Anchor: s("anchor"),
		Space: s("space"), User: s("user"), Collection: s("collection"),
		ReusableContent: s("reusableContent"), Spec: s("spec"),
	}
	if _, known := refIDField[r.Kind]; !known {
		return ContentRef{}, false
	}
	return r, true
}

// The Markdown spelling of references other than plain URLs. A link or
// image destination is read as follows:
//
//	#intro                        anchor on the same page
//	page://<pageId>               page (optionally ?space=<spaceId>)
//	page://<pageId>#intro         anchor on another page
//	space://<spaceId>             space (space://<spaceId>#a: anchor in it)
//	file://<fileId>               file
//	user://<userId>               user
//	collection://<collectionId>   collection
//	reusable-content://<id>       reusable content (optionally ?space=)
//	openapi://<specSlug>          OpenAPI specification
//
// Anything else is a url reference. Identifiers are percent-encoded where
// they contain '%', '?', '#', '&' or white space.
var refSchemes = map[string]string{
	"page": RefPage, "space": RefSpace, "file": RefFile, "user": RefUser,
	"collection": RefCollection, "reusable-content": RefReusableContent, "openapi": RefOpenAPI,
}

// RefFromURL maps a Markdown link destination to a content reference.
func RefFromURL(u string) ContentRef {
	if strings.HasPrefix(u, "#") && len(u) > 1 {
		return ContentRef{Kind: RefAnchor, Anchor: u[1:]}
	}
	scheme, rest, ok := strings.Cut(u, "://")
	kind, known := refSchemes[scheme]
	if !ok || !known {
		return ContentRef{Kind: RefURL, URL: u}
	}
	switch kind {
	case RefPage, RefSpace, RefReusableContent:
		rest, anchor, hasAnchor := strings.Cut(rest, "#")
		id, query, _ := strings.Cut(rest, "?")
		id = decodeRefID(id)
		if id == "" {
			break
		}
		var space string
		if query != "" {
			if q, err := url.ParseQuery(query); err == nil {
				space = strings.ToValidUTF8(q.Get("space"), "\uFFFD")
			}
		}
		hasAnchor = hasAnchor && anchor != ""
		switch kind {
		case RefPage:
			if hasAnchor {
				return ContentRef{Kind: RefAnchor, Anchor: anchor, Page: id, Space: space}
			}
			return ContentRef{Kind: RefPage, Page: id, Space: space}
		case RefSpace:
			if hasAnchor {
				return ContentRef{Kind: RefAnchor, Anchor: anchor, Space: id}
			}
			return ContentRef{Kind: RefSpace, Space: id}
		default:
			return ContentRef{Kind: RefReusableContent, ReusableContent: id, Space: space}
		}
	default:
		id := decodeRefID(rest)
		if id == "" {
			break
		}
		r := ContentRef{Kind: kind}
		switch kind {
		case RefFile:
			r.File = id
		case RefUser:
			r.User = id
		case RefCollection:
			r.Collection = id
		case RefOpenAPI:
			r.Spec = id
		}
		return r
	}
	return ContentRef{Kind: RefURL, URL: u}
}

// MarkdownURL is the inverse of RefFromURL.
func (r ContentRef) MarkdownURL() string {
	q := ""
	if r.Space != "" {
		q = "?space=" + url.QueryEscape(r.Space)
	}
	switch r.Kind {
	case RefURL:
		return r.URL
	case RefFile:
		return "file://" + encodeRefID(r.File)
	case RefPage:
		return "page://" + encodeRefID(r.Page) + q
	case RefAnchor:
		switch {
		case r.Page != "":
			return "page://" + encodeRefID(r.Page) + q + "#" + r.Anchor
		case r.Space != "":
			return "space://" + encodeRefID(r.Space) + "#" + r.Anchor
		}
		return "#" + r.Anchor
	case RefUser:
		return "user://" + encodeRefID(r.User)
	case RefCollection:
		return "collection://" + encodeRefID(r.Collection)
	case RefSpace:
		return "space://" + encodeRefID(r.Space)
	case RefReusableContent:
		return "reusable-content://" + encodeRefID(r.ReusableContent) + q
	case RefOpenAPI:
		return "openapi://" + encodeRefID(r.Spec)
	}
	return ""
}

func encodeRefID(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%' || c == '?' || c == '#' || c == '&' || c <= ' ' || c == 0x7f:
			fmt.Fprintf(&b, "%%%02X", c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func decodeRefID(s string) string {
	// An escape that decodes to bytes which are not UTF-8 (file://a%80) is
	// kept as written: a document's strings are UTF-8, as JSON's are.
	if d, err := url.PathUnescape(s); err == nil && utf8.ValidString(d) {
		return d
	}
	return s
}
