package rest

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
)

// The published profile writes its own JSON; it must be what json.Marshal
// writes, byte for byte.
func TestPublishedContentSiteAppendJSON(t *testing.T) {
	custom := json.RawMessage(`{"title":"a \u003cb\u003e \u0026 c","n":[1,2]}`)
	for _, p := range []PublishedContentSite{
		{},
		{
			Object:         "published-content-site",
			Site:           &Site{Object: "site", ID: "s1", Title: "<T&>", CreatedAt: time.Unix(5, 0).UTC()},
			Structure:      &SiteStructure{Type: "sections", Structure: []any{&SiteSection{Object: "site-section", ID: "x", SiteSpaces: []*SiteSpace{}}}},
			Customizations: Customizations{Site: custom, SiteSpaces: json.RawMessage(`{"a":` + string(custom) + `}`)},
			Scripts:        []SiteScript{{Script: "https://x/<y>"}},
		},
	} {
		want, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		got, err := p.appendJSON(nil)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("appendJSON:\n got %s\nwant %s", got, want)
		}
	}
}
