package pdf

import (
	"strconv"
	"strings"
)

func bodyStyle() tstyle {
	return tstyle{family: "Helvetica", size: bodySize, color: colText}
}

// gapBefore returns the vertical space before a block of kind k.
func (r *renderer) gapBefore(k string) float64 {
	if r.prevKind == "" {
		return 0
	}
	isList := func(k string) bool { return k == "list-item" || k == "task" }
	switch {
	case k == "heading1":
		return 7
	case k == "heading2":
		return 6
	case k == "heading3":
		return 4.5
	case isList(k) && isList(r.prevKind):
		return 1.2
	case strings.HasPrefix(r.prevKind, "heading"):
		return 2
	}
	return 3.5
}

func (r *renderer) block(b Block) {
	kind := strings.ToLower(strings.TrimSpace(b.Kind))
	switch kind {
	case "heading1", "heading2", "heading3", "paragraph", "code", "quote",
		"hint", "list-item", "task", "divider", "table", "image", "math":
	default:
		kind = "paragraph"
	}
	if kind == "paragraph" && strings.TrimSpace(plainText(b.Text)) == "" {
		return
	}
	if kind != "list-item" && kind != "task" {
		clear(r.counters)
	}
	if gap := r.gapBefore(kind); gap > 0 && r.pdf.GetY() > marginT+1e-6 {
		r.pdf.SetY(r.pdf.GetY() + gap)
	}
	switch kind {
	case "heading1":
		r.heading(b, 16, 8)
	case "heading2":
		r.heading(b, 13.5, 7)
	case "heading3":
		r.heading(b, 11.5, 6)
	case "paragraph":
		r.flow(r.layout(r.tokens(b.Text, bodyStyle()), contentW), marginL, bodyLH)
	case "code":
		r.code(b)
	case "quote":
		r.quote(b)
	case "hint":
		r.hint(b)
	case "list-item", "task":
		r.listItem(b, kind == "task")
	case "divider":
		r.divider()
	case "table":
		r.table(b)
	case "image":
		r.image(b)
	case "math":
		r.math(b)
	}
	r.prevKind = kind
}

func (r *renderer) heading(b Block, size, lh float64) {
	st := tstyle{family: "Helvetica", size: size, bold: true, color: colHeading}
	lines := r.layout(r.tokens(b.Text, st), contentW)
	if len(lines) == 0 {
		return
	}
	// Keep the heading together with at least three lines of what follows.
	r.ensure(float64(len(lines))*lh + 3*bodyLH)
	r.flow(lines, marginL, lh)
	if size >= 16 {
		y := r.pdf.GetY() + 0.8
		r.pdf.SetDrawColor(colRule.r, colRule.g, colRule.b)
		r.pdf.SetLineWidth(0.25)
		r.pdf.Line(marginL, y, marginL+contentW, y)
		r.pdf.SetY(y + 1.2)
	}
}

// ---- boxes: decorated groups of rows that may break across pages ----

type row struct {
	h    float64
	draw func(y float64)
}

type boxStyle struct {
	x, w       float64
	fill, bar  *rgb
	barW       float64
	padT, padB float64
}

func (r *renderer) boxBg(bs boxStyle, y, h float64) {
	if h <= 0 {
		return
	}
	if bs.fill != nil {
		r.pdf.SetFillColor(bs.fill.r, bs.fill.g, bs.fill.b)
		r.pdf.Rect(bs.x, y, bs.w, h, "F")
	}
	if bs.bar != nil {
		r.pdf.SetFillColor(bs.bar.r, bs.bar.g, bs.bar.b)
		r.pdf.Rect(bs.x, y, bs.barW, h, "F")
	}
}

// box draws rows inside a decorated box. When a row does not fit, the box
// is continued on the next page (with its top padding repeated).
func (r *renderer) box(bs boxStyle, rows []row) {
	if len(rows) == 0 {
		return
	}
	first := rows[0].h
	if len(rows) > 1 {
		first += rows[1].h
	}
	r.ensure(bs.padT + first)
	y := r.pdf.GetY()
	r.boxBg(bs, y, bs.padT)
	y += bs.padT
	for _, rw := range rows {
		if y+rw.h > trigger+1e-6 {
			r.boxBg(bs, y, min(bs.padB, trigger+marginB/2-y))
			r.newPage()
			y = r.pdf.GetY()
			r.boxBg(bs, y, bs.padT)
			y += bs.padT
		}
		r.boxBg(bs, y, rw.h)
		rw.draw(y)
		y += rw.h
	}
	r.boxBg(bs, y, bs.padB)
	r.pdf.SetY(y + bs.padB)
}

// textRows turns laid-out lines into box rows drawn at x.
func (r *renderer) textRows(lines []tline, x, lh float64) []row {
	rows := make([]row, len(lines))
	for i, l := range lines {
		rows[i] = row{h: lh, draw: func(y float64) { r.drawLine(l, x, y, lh) }}
	}
	return rows
}

func (r *renderer) quote(b Block) {
	st := bodyStyle()
	st.color = colQuote
	const indent = 6.0
	lines := r.layout(r.tokens(b.Text, st), contentW-indent-2)
	bar := rgb{200, 206, 212}
	r.box(boxStyle{x: marginL, w: contentW, bar: &bar, barW: 1.2, padT: 0.8, padB: 0.8},
		r.textRows(lines, marginL+indent, bodyLH))
}

func hintPaletteFor(style string) hintPalette {
	s := strings.ToLower(strings.TrimSpace(style))
	if a, ok := hintAliases[s]; ok {
		s = a
	}
	if p, ok := hintStyles[s]; ok {
		return p
	}
	return hintStyles["info"]
}

func (r *renderer) hint(b Block) {
	pal := hintPaletteFor(b.Style)
	label := tstyle{family: "Helvetica", size: bodySize, bold: true, color: pal.bar}
	toks := r.appendTokens(nil, pal.label+": ", label)
	toks = append(toks, r.tokens(b.Text, bodyStyle())...)
	const indent = 6.0
	lines := r.layout(toks, contentW-indent-4)
	r.box(boxStyle{x: marginL, w: contentW, fill: &pal.fill, bar: &pal.bar, barW: 1.5, padT: 3, padB: 3},
		r.textRows(lines, marginL+indent, bodyLH))
}

// code draws a shaded monospace box; whitespace is preserved and long lines
// are wrapped at the box width.
func (r *renderer) code(b Block) {
	const (
		pad  = 4.0
		lh   = 4.3
		size = 8.8
	)
	st := tstyle{family: "Courier", size: size, color: rgb{36, 41, 47}}
	maxChars := max(int((contentW-2*pad)/r.width("m", st)), 1)

	src := strings.ReplaceAll(b.Code, "\r\n", "\n")
	src = strings.TrimRight(src, "\n ")
	var lines []string
	for _, l := range strings.Split(src, "\n") {
		l = r.enc(expandTabs(l, 4))
		for len(l) > maxChars {
			lines = append(lines, l[:maxChars])
			l = l[maxChars:]
		}
		lines = append(lines, strings.TrimRight(l, " "))
	}

	var rows []row
	if lang := strings.TrimSpace(b.Language); lang != "" {
		ls := tstyle{family: "Helvetica", size: 7, color: colMuted}
		text := r.truncate(r.enc(strings.ToUpper(lang)), ls, contentW-2*pad)
		rows = append(rows, row{h: 3.5, draw: func(y float64) {
			r.useStyle(ls)
			r.pdf.SetXY(marginL+pad, y-1.2)
			r.pdf.CellFormat(contentW-2*pad, 4, text, "", 0, "R", false, 0, "")
		}})
	}
	for _, l := range lines {
		rows = append(rows, row{h: lh, draw: func(y float64) {
			if l == "" {
				return
			}
			r.useStyle(st)
			r.pdf.SetXY(marginL+pad, y)
			r.pdf.CellFormat(contentW-2*pad, lh, l, "", 0, "L", false, 0, "")
		}})
	}
	fill := rgb{244, 246, 248}
	r.box(boxStyle{x: marginL, w: contentW, fill: &fill, padT: 3, padB: 3}, rows)
}

// expandTabs replaces tabs with spaces up to the next tab stop.
func expandTabs(s string, tab int) string {
	if !strings.Contains(s, "\t") {
		return s
	}
	var b strings.Builder
	col := 0
	for _, c := range s {
		if c == '\t' {
			n := tab - col%tab
			b.WriteString(strings.Repeat(" ", n))
			col += n
			continue
		}
		b.WriteRune(c)
		col++
	}
	return b.String()
}

// math draws TeX source as centered monospace text.
func (r *renderer) math(b Block) {
	src := b.Code
	if strings.TrimSpace(src) == "" {
		src = plainText(b.Text)
	}
	st := tstyle{family: "Courier", size: 10, color: colText}
	toks := r.appendTokens(nil, r.enc(strings.TrimSpace(src)), st)
	lines := r.layout(toks, contentW-10)
	rows := make([]row, len(lines))
	for i, l := range lines {
		rows[i] = row{h: 5, draw: func(y float64) {
			r.drawLine(l, marginL+(contentW-l.w)/2, y, 5)
		}}
	}
	r.box(boxStyle{x: marginL, w: contentW, padT: 1, padB: 1}, rows)
}

var bullets = []string{"\x95", "\x96", "\xb7"} // • – · in cp1252

func (r *renderer) listItem(b Block, task bool) {
	depth := min(max(b.Depth, 0), 8)
	for d := range r.counters {
		if d > depth {
			delete(r.counters, d)
		}
	}
	x := marginL + float64(depth)*6
	st := bodyStyle()
	var marker string
	var mst tstyle
	markerW := 6.0
	switch {
	case task:
		marker, mst = "[ ]", tstyle{family: "Courier", size: 9.5, bold: true, color: colMuted}
		if b.Checked {
			marker, mst.color = "[x]", rgb{34, 139, 58}
			st.color = colMuted
		}
		markerW = r.width(marker, mst) + 2
		delete(r.counters, depth)
	case b.Ordered:
		n := b.Index
		if n <= 0 {
			n = r.counters[depth] + 1
		}
		r.counters[depth] = n
		marker, mst = strconv.Itoa(n)+".", st
		markerW = max(markerW, r.width(marker, mst)+2)
	default:
		marker, mst = bullets[depth%len(bullets)], st
		delete(r.counters, depth)
	}
	textX := x + markerW
	lines := r.layout(r.tokens(b.Text, st), marginL+contentW-textX)
	if len(lines) == 0 {
		lines = []tline{{}}
	}
	rows := r.textRows(lines, textX, bodyLH)
	drawFirst := rows[0].draw
	rows[0].draw = func(y float64) {
		r.useStyle(mst)
		r.pdf.SetXY(x, y)
		r.pdf.CellFormat(markerW, bodyLH, marker, "", 0, "L", false, 0, "")
		drawFirst(y)
	}
	r.box(boxStyle{x: x, w: 0}, rows)
}

func (r *renderer) divider() {
	r.ensure(6)
	y := r.pdf.GetY() + 3
	r.pdf.SetDrawColor(206, 212, 218)
	r.pdf.SetLineWidth(0.3)
	r.pdf.Line(marginL, y, marginL+contentW, y)
	r.pdf.SetY(y + 3)
}

func (r *renderer) image(b Block) {
	const boxH = 26.0
	var capLines []tline
	cst := tstyle{family: "Helvetica", size: 9, italic: true, color: colMuted}
	if c := strings.TrimSpace(b.Caption); c != "" {
		capLines = r.layout(r.appendTokens(nil, r.enc(c), cst), contentW-10)
	}
	r.ensure(boxH + 2 + float64(len(capLines))*4.5)
	p := r.pdf
	y := p.GetY()
	p.SetDrawColor(173, 181, 189)
	p.SetFillColor(248, 249, 250)
	p.SetLineWidth(0.3)
	p.SetDashPattern([]float64{1.5, 1}, 0)
	p.Rect(marginL, y, contentW, boxH, "FD")
	p.SetDashPattern(nil, 0)

	lst := tstyle{family: "Helvetica", size: 10, bold: true, color: colMuted}
	r.useStyle(lst)
	p.SetXY(marginL, y+7)
	p.CellFormat(contentW, 5, "Image", "", 0, "C", false, 0, "")

	ust := tstyle{family: "Helvetica", size: 8, color: colMuted}
	url := strings.TrimSpace(b.URL)
	text := "(no source)"
	if url != "" {
		text = r.truncate(r.enc(url), ust, contentW-10)
		if l := safeLink(url); l != "" {
			ust.link, ust.color = l, colLink
		}
	}
	r.useStyle(ust)
	w := r.width(text, ust)
	p.SetXY(marginL+(contentW-w)/2, y+14)
	p.CellFormat(w, 4.5, text, "", 0, "L", false, 0, ust.link)

	y += boxH + 2
	for _, l := range capLines {
		r.drawLine(l, marginL+(contentW-l.w)/2, y, 4.5)
		y += 4.5
	}
	p.SetY(y)
}

// table draws a table with equal-width columns; the header row is repeated
// on every page the table spans, and rows taller than a page are split.
func (r *renderer) table(b Block) {
	cols := 0
	for _, rw := range b.Rows {
		cols = max(cols, len(rw))
	}
	if cols == 0 {
		return
	}
	const (
		lh   = 4.5
		size = 9.0
	)
	colW := contentW / float64(cols)
	// Many columns make narrow ones: the padding shrinks with them so
	// that some room is left for text.
	pad := min(1.8, colW/6)
	cellLines := func(cells []string, header bool) [][]tline {
		st := tstyle{family: "Helvetica", size: size, bold: header, color: colText}
		out := make([][]tline, cols)
		for i := range cols {
			if i < len(cells) {
				out[i] = r.layout(r.appendTokens(nil, r.enc(cells[i]), st), colW-2*pad)
			}
		}
		return out
	}
	nlines := func(cells [][]tline) int {
		n := 1
		for _, c := range cells {
			n = max(n, len(c))
		}
		return n
	}
	border := rgb{206, 212, 218}
	headFill := rgb{233, 236, 239}
	zebra := rgb{248, 249, 250}

	// chunk draws lines [from, to) of a row as one band of cells.
	chunk := func(cells [][]tline, from, to int, fill *rgb) {
		y := r.pdf.GetY()
		h := float64(to-from)*lh + 2*pad
		r.pdf.SetDrawColor(border.r, border.g, border.b)
		r.pdf.SetLineWidth(0.2)
		for i := range cols {
			x := marginL + float64(i)*colW
			style := "D"
			if fill != nil {
				r.pdf.SetFillColor(fill.r, fill.g, fill.b)
				style = "FD"
			}
			r.pdf.Rect(x, y, colW, h, style)
			for j := from; j < to && j < len(cells[i]); j++ {
				r.drawLine(cells[i][j], x+pad, y+pad+float64(j-from)*lh, lh)
			}
		}
		r.pdf.SetY(y + h)
	}

	header := cellLines(b.Rows[0], true)
	headerH := float64(nlines(header))*lh + 2*pad
	repeatHeader := headerH < (trigger-marginT)/3
	drawHeader := func() { chunk(header, 0, nlines(header), &headFill) }
	if len(b.Rows) > 1 {
		// Do not leave the header alone at the bottom of a page.
		first := float64(nlines(cellLines(b.Rows[1], false)))*lh + 2*pad
		r.ensure(min(headerH+first, trigger-marginT))
	}

	for ri, cells := range b.Rows {
		lines := header
		fill := &headFill
		if ri > 0 {
			lines = cellLines(cells, false)
			fill = nil
			if ri%2 == 0 {
				fill = &zebra
			}
		}
		total := nlines(lines)
		for start := 0; start < total; {
			y := r.pdf.GetY()
			need := float64(total-start)*lh + 2*pad
			if y+need <= trigger+1e-6 {
				chunk(lines, start, total, fill)
				break
			}
			fit := int((trigger - y - 2*pad + 1e-6) / lh)
			atTop := y <= marginT+headerH+1e-6
			if fit < 1 || (start == 0 && !atTop && need <= trigger-marginT-headerH) {
				// Move the whole row (or the rest of it) to the next page.
				r.newPage()
				if ri > 0 && repeatHeader {
					drawHeader()
				}
				continue
			}
			chunk(lines, start, start+fit, fill)
			start += fit
			r.newPage()
			if ri > 0 && repeatHeader {
				drawHeader()
			}
		}
	}
}
