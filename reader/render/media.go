package render

import (
	"fmt"
	"strconv"
	"strings"

	"quire/internal/document"
)

// images renders an images block: its images side by side.
func (r *renderer) images(n *document.Node, depth int) {
	class := "images"
	if a := oneOf(dataString(n, "align"), "center", "left", "right"); a != "" {
		class += " images-" + a
	}
	if dataBool(n, "fullWidth") {
		class += " full-width"
	}
	if dataBool(n, "withFrame") {
		class += " with-frame"
	}
	r.open("div", class)
	r.w("\n")
	for i := range n.Nodes {
		r.block(&n.Nodes[i], depth+1)
	}
	r.w("</div>\n")
}

// figure renders an image block: the image, its dark variant for dark
// color schemes, and its caption. An image the reader may not fetch leaves
// its alt text and caption.
func (r *renderer) figure(n *document.Node, depth int) {
	alt := dataString(n, "alt")
	ref, _ := n.Ref()
	src, ok := r.image(ref)
	r.w(`<figure class="image">`)
	if ok {
		var dark File
		darkOK := false
		if d, has := (&document.Node{Data: map[string]any{"ref": n.Data["refDark"]}}).Ref(); has {
			dark, darkOK = r.image(d)
		}
		if darkOK {
			r.w(`<picture><source media="(prefers-color-scheme: dark)"`)
			r.attr("srcset", srcset(dark.URL))
			r.w(">")
		}
		r.w("<img")
		r.attr("src", src.URL)
		r.attr("alt", alt)
		r.dimensions(n, src)
		r.w(` loading="lazy" decoding="async">`)
		if darkOK {
			r.w("</picture>")
		}
	} else if alt != "" {
		r.w(`<span class="image-unavailable">`)
		r.esc(alt)
		r.w("</span>")
	}
	r.addText(alt)
	if f, has := n.FragmentByName(document.FragmentCaption); has && len(f.Nodes) > 0 {
		r.w("<figcaption>")
		r.inlineBlocks(f.Nodes, depth+1)
		r.w("</figcaption>")
	}
	r.w("</figure>\n")
	r.endText()
}

// srcset makes a URL safe to stand alone in a srcset, where a comma or
// white space would start another candidate.
func srcset(u string) string {
	return strings.NewReplacer(",", "%2C", " ", "%20").Replace(u)
}

// dimensions writes width and height: the block's own (in pixels) when it
// sets them, else the file's.
func (r *renderer) dimensions(n *document.Node, f File) {
	w, h := f.Width, f.Height
	if n != nil {
		if px, ok := pixels(n.Data["width"]); ok {
			if w > 0 && h > 0 {
				h = h * px / w
			} else {
				h = 0
			}
			w = px
		}
		if px, ok := pixels(n.Data["height"]); ok {
			h = px
		}
	}
	if w > 0 && w < 100000 {
		r.attr("width", strconv.Itoa(w))
	}
	if h > 0 && h < 100000 {
		r.attr("height", strconv.Itoa(h))
	}
}

// pixels reads a length in pixels: a number, or {unit: "px", value}.
func pixels(v any) (int, bool) {
	var f float64
	switch x := v.(type) {
	case float64:
		f = x
	case map[string]any:
		if u, _ := x["unit"].(string); u != "px" {
			return 0, false
		}
		f, _ = x["value"].(float64)
	default:
		return 0, false
	}
	if f < 1 || f >= 100000 {
		return 0, false
	}
	return int(f), true
}

// fileBlock renders a file block: a download link with the file's name and
// size, and its caption.
func (r *renderer) fileBlock(n *document.Node) {
	ref, _ := n.Ref()
	caption := dataString(n, "caption")
	f, ok := File{}, false
	if ref.Kind == document.RefFile {
		f, ok = r.file(ref.File)
	}
	if !ok {
		if caption != "" {
			r.w(`<p class="file">`)
			r.esc(caption)
			r.w("</p>\n")
			r.addText(caption)
			r.endText()
		}
		return
	}
	name := f.Name
	if name == "" {
		name = "Download"
	}
	r.w(`<p class="file"><a class="file-link"`)
	r.attr("href", f.URL)
	r.attr("download", f.Name)
	r.w(">")
	r.esc(name)
	r.w("</a>")
	if f.Size > 0 {
		r.w(` <span class="file-size">`)
		r.esc(byteSize(f.Size))
		r.w("</span>")
	}
	if caption != "" {
		r.w(` <span class="file-caption">`)
		r.esc(caption)
		r.w("</span>")
	}
	r.w("</p>\n")
	r.addText(caption)
	r.endText()
}

// byteSize writes a size as people read it: 512 B, 1.5 kB, 12 MB.
func byteSize(n int64) string {
	const unit = 1000
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit && exp < 4; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %cB", float64(n)/float64(div), "kMGTP"[exp])
}

// drawing renders a drawing as the image of its file.
func (r *renderer) drawing(n *document.Node) {
	ref, ok := n.Ref()
	if !ok || ref.Kind != document.RefFile {
		return
	}
	f, ok := r.file(ref.File)
	if !ok || !safeSrc(f.URL) {
		return
	}
	r.w(`<figure class="drawing"><img`)
	r.attr("src", f.URL)
	r.w(` alt="Drawing"`)
	r.dimensions(nil, f)
	r.w(` loading="lazy" decoding="async"></figure>` + "\n")
}
