package render

import (
	"strings"
	"testing"
)

// TestTableViews renders every table view kind and cell type as a table
// with headers.
func TestTableViews(t *testing.T) {
	js := `{"object":"document","data":{},"nodes":[{"object":"block","type":"table","isVoid":true,
	 "data":{"view":{"type":"cards","columns":["t","n","c","s","f","r","l","u","i"],"cardSize":"medium"},
	  "definition":{
	   "t":{"id":"t","title":"Text","type":"text","textAlignment":"center"},
	   "n":{"id":"n","title":"Number","type":"number"},
	   "c":{"id":"c","title":"Done","type":"checkbox"},
	   "s":{"id":"s","title":"Select","type":"select","multiple":true,"options":[{"value":"o1","label":"Option one"}]},
	   "f":{"id":"f","title":"Files","type":"files"},
	   "r":{"id":"r","title":"Rating","type":"rating","max":5},
	   "l":{"id":"l","title":"Link","type":"content-ref"},
	   "u":{"id":"u","title":"Users","type":"users","multiple":true},
	   "i":{"id":"i","title":"Image","type":"image"}},
	  "records":{"b":{"orderIndex":"b","values":{"t":"frag1","n":42}},
	   "a":{"orderIndex":"a","values":{"t":"plain","c":true,"s":["o1"],"f":["f1","hidden"],"r":4,
	     "l":{"kind":"page","page":"p1"},"u":["user1"],"i":{"ref":{"kind":"file","file":"f1"},"alt":"pic"}}}}},
	 "fragments":[{"object":"fragment","fragment":"frag1","nodes":[{"object":"block","type":"paragraph","nodes":[
	   {"object":"text","leaves":[{"object":"leaf","text":"rich","marks":[{"object":"mark","type":"bold"}]}]}]}]}]}]}`
	res, root := render(t, fromJSON(t, js), Options{})
	tbl := one(t, root, "table")
	var heads []string
	for _, th := range find(tbl, "th") {
		heads = append(heads, text(th))
	}
	if got := strings.Join(heads, ","); got != "Text,Number,Done,Select,Files,Rating,Link,Users,Image" {
		t.Errorf("headers %q", got)
	}
	rows := find(one(t, tbl, "tbody"), "tr")
	if len(rows) != 2 {
		t.Fatalf("%d rows: %s", len(rows), res.HTML)
	}
	cells := find(rows[0], "td")
	want := []string{"plain", "", "", "Option one", "logo.png", "4 / 5", "Getting started", "", ""}
	for i, w := range want {
		if got := text(cells[i]); got != w {
			t.Errorf("row 1 cell %d %q, want %q", i, got, w)
		}
	}
	if !hasAttr(one(t, cells[2], "input"), "checked") || attr(one(t, cells[8], "img"), "alt") != "pic" {
		t.Errorf("checkbox or image: %s", res.HTML)
	}
	if text(one(t, rows[1], "strong")) != "rich" || text(find(rows[1], "td")[1]) != "42" {
		t.Errorf("row 2: %s", outer(rows[1]))
	}
	if strings.Contains(string(res.HTML), "hidden") || strings.Contains(string(res.HTML), "user1") {
		t.Errorf("hidden file or user id shows: %s", res.HTML)
	}
}
