package pdf

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/go-pdf/fpdf"
)

// Page geometry in millimetres (A4).
const (
	pageW    = 210.0
	pageH    = 297.0
	marginL  = 20.0
	marginR  = 20.0
	marginT  = 22.0
	marginB  = 20.0
	contentW = pageW - marginL - marginR
	// trigger is the lowest y at which content may end.
	trigger = pageH - marginB

	bodySize = 10.5 // pt
	bodyLH   = 5.2  // mm
)

var (
	colText       = rgb{33, 37, 41}
	colMuted      = rgb{108, 117, 125}
	colHeading    = rgb{17, 24, 39}
	colLink       = rgb{13, 94, 215}
	colInlineCode = rgb{173, 20, 87}
	colQuote      = rgb{73, 80, 87}
	colRule       = rgb{222, 226, 230}
	colAccent     = rgb{13, 110, 253}
)

// hintPalette is the look of one hint style.
type hintPalette struct {
	label     string
	bar, fill rgb
}

var hintStyles = map[string]hintPalette{
	"info":    {"Info", rgb{13, 110, 253}, rgb{231, 241, 255}},
	"warning": {"Warning", rgb{230, 126, 0}, rgb{255, 243, 224}},
	"danger":  {"Danger", rgb{211, 47, 47}, rgb{253, 234, 234}},
	"success": {"Success", rgb{34, 139, 58}, rgb{232, 246, 236}},
}

var hintAliases = map[string]string{
	"note": "info", "tip": "success", "caution": "warning", "warn": "warning",
	"error": "danger", "important": "warning", "check": "success",
}

// renderer holds the state of one rendering pass.
type renderer struct {
	pdf  *fpdf.Fpdf
	meas *fpdf.Fpdf // page-less document used only to measure text
	tr   func(string) string
	// cp1252 caches rune -> cp1252 byte ('?' when not representable).
	cp1252 map[rune]byte

	opt      Options
	pages    []Page
	docTitle string // cp1252
	section  string // cp1252 title shown in the running header

	tocNums []int // from the first pass; nil when unknown
	starts  []int // page number on which each documentation page starts
	links   []int // internal link ids of the table of contents entries

	lastLevel int         // outline level of the last bookmark, -1 if none
	prevKind  string      // kind of the previous block on the page
	counters  map[int]int // ordered list counters by depth
}

func newRenderer(pages []Page, opt Options, tocNums []int) *renderer {
	p := fpdf.New("P", "mm", "A4", "")
	r := &renderer{
		pdf:       p,
		meas:      fpdf.New("P", "mm", "A4", ""),
		cp1252:    map[rune]byte{},
		opt:       opt,
		pages:     pages,
		tocNums:   tocNums,
		lastLevel: -1,
	}
	r.tr = p.UnicodeTranslatorFromDescriptor("") // cp1252
	title := opt.Title
	if strings.TrimSpace(title) == "" {
		title = "Documentation"
	}
	r.docTitle = r.enc(title)

	p.SetMargins(marginL, marginT, marginR)
	p.SetAutoPageBreak(true, marginB)
	p.SetCellMargin(0)
	p.SetCompression(!opt.Uncompressed)
	p.SetTitle(title, true)
	if opt.Subtitle != "" {
		p.SetSubject(opt.Subtitle, true)
	}
	p.SetCreator("quire", true)
	p.SetCreationDate(opt.Generated)
	p.SetModificationDate(opt.Generated)
	p.SetCatalogSort(true)
	p.AliasNbPages("{nb}")
	p.SetHeaderFuncMode(r.header, true)
	p.SetFooterFunc(r.footer)
	p.SetDisplayMode("fullwidth", "single")
	return r
}

func (r *renderer) render() error {
	r.titlePage()
	if hasTOC(r.pages) {
		r.toc()
	}
	for i := range r.pages {
		r.page(i)
	}
	if r.pdf.PageCount() == 0 {
		r.pdf.AddPage()
	}
	return r.pdf.Error()
}

// ---- page furniture ----

func (r *renderer) header() {
	if r.pdf.PageNo() <= 1 {
		return // title page
	}
	st := tstyle{family: "Helvetica", size: 8, color: colMuted}
	r.useStyle(st)
	half := contentW / 2
	r.pdf.SetXY(marginL, 10)
	r.pdf.CellFormat(half-4, 5, r.truncate(r.docTitle, st, half-4), "", 0, "L", false, 0, "")
	r.pdf.SetXY(marginL+half+4, 10)
	r.pdf.CellFormat(half-4, 5, r.truncate(r.section, st, half-4), "", 0, "R", false, 0, "")
	r.pdf.SetDrawColor(colRule.r, colRule.g, colRule.b)
	r.pdf.SetLineWidth(0.2)
	r.pdf.Line(marginL, 15.5, marginL+contentW, 15.5)
}

func (r *renderer) footer() {
	if r.pdf.PageNo() <= 1 {
		return
	}
	r.useStyle(tstyle{family: "Helvetica", size: 8, color: colMuted})
	r.pdf.SetXY(marginL, pageH-13)
	r.pdf.CellFormat(contentW, 5, fmt.Sprintf("Page %d of {nb}", r.pdf.PageNo()), "", 0, "C", false, 0, "")
}

// newPage starts a page and positions the cursor at the top of the content
// area.
func (r *renderer) newPage() {
	r.pdf.AddPage()
	r.pdf.SetXY(marginL, marginT)
}

// ensure starts a new page unless h millimetres fit below the cursor.
// It reports whether a page was started.
func (r *renderer) ensure(h float64) bool {
	if r.pdf.GetY()+h > trigger+1e-6 && r.pdf.GetY() > marginT+1e-6 {
		r.newPage()
		return true
	}
	return false
}

// bookmark adds an outline entry, keeping levels valid for fpdf (the first
// entry is level 0 and levels grow by at most one).
func (r *renderer) bookmark(text string, level int) {
	if level < 0 {
		level = 0
	}
	if level > r.lastLevel+1 {
		level = r.lastLevel + 1
	}
	r.lastLevel = level
	r.pdf.Bookmark(utf16Text(text), level, 0)
}

func (r *renderer) titlePage() {
	r.pdf.AddPage()
	p := r.pdf

	y := 92.0
	p.SetFillColor(colAccent.r, colAccent.g, colAccent.b)
	p.Rect(marginL, y, 24, 2.2, "F")
	y += 10

	st := tstyle{family: "Helvetica", size: 28, bold: true, color: colHeading}
	for _, l := range r.layout(r.appendTokens(nil, r.docTitle, st), contentW) {
		r.drawLine(l, marginL, y, 12)
		y += 12
	}
	if r.opt.Subtitle != "" {
		y += 2
		st := tstyle{family: "Helvetica", size: 14, color: colMuted}
		for _, l := range r.layout(r.appendTokens(nil, r.enc(r.opt.Subtitle), st), contentW) {
			r.drawLine(l, marginL, y, 7)
			y += 7
		}
	}
	y += 8
	st = tstyle{family: "Helvetica", size: 11, color: colMuted}
	info := r.opt.Generated.Format("2 January 2006")
	switch n := len(r.pages); n {
	case 1:
		info += "  \x95  1 page"
	default:
		info += fmt.Sprintf("  \x95  %d pages", n)
	}
	r.drawLine(r.layout(r.appendTokens(nil, info, st), contentW)[0], marginL, y, 6)
}

// titleText is a page's title for the outline (full Unicode).
func titleText(pg Page) string {
	t := strings.TrimSpace(pg.Title)
	if t == "" {
		t = "Untitled"
	}
	if e := strings.TrimSpace(pg.Emoji); e != "" {
		t = e + " " + t
	}
	return t
}

// visibleTitle is a page's title for the page itself, in cp1252; the emoji
// is included only if it can be represented.
func (r *renderer) visibleTitle(pg Page) string {
	t := strings.TrimSpace(pg.Title)
	if t == "" {
		t = "Untitled"
	}
	if e := strings.TrimSpace(pg.Emoji); e != "" && r.representable(e) {
		t = e + " " + t
	}
	return r.enc(t)
}

const (
	tocLH   = 7.0
	tocNumW = 14.0
)

func (r *renderer) toc() {
	r.section = "Contents"
	r.newPage()
	r.bookmark("Contents", 0)
	st := tstyle{family: "Helvetica", size: 20, bold: true, color: colHeading}
	r.drawLine(r.layout(r.appendTokens(nil, "Contents", st), contentW)[0], marginL, r.pdf.GetY(), 10)
	r.pdf.SetY(r.pdf.GetY() + 14)

	r.links = make([]int, len(r.pages))
	for i, pg := range r.pages {
		r.links[i] = r.pdf.AddLink()
		r.ensure(tocLH)
		y := r.pdf.GetY()
		depth := min(max(pg.Depth, 0), 6)
		x := marginL + float64(depth)*6
		st := tstyle{family: "Helvetica", size: 10.5, color: colText}
		if depth == 0 {
			st.bold = true
		}
		avail := marginL + contentW - tocNumW - 3 - x
		title := r.truncate(r.visibleTitle(pg), st, avail)
		tw := r.width(title, st)
		r.useStyle(st)
		r.pdf.SetXY(x, y)
		r.pdf.CellFormat(tw, tocLH, title, "", 0, "L", false, r.links[i], "")

		// dot leaders
		dots := tstyle{family: "Helvetica", size: 9, color: rgb{173, 181, 189}}
		lx := x + tw + 2
		lw := marginL + contentW - tocNumW - 1 - lx
		if dw := r.width(" .", dots); lw > dw {
			r.useStyle(dots)
			r.pdf.SetXY(lx, y)
			leader := strings.Repeat(" .", int(lw/dw))
			r.pdf.CellFormat(lw, tocLH, leader, "", 0, "R", false, 0, "")
		}

		num := ""
		if i < len(r.tocNums) {
			num = strconv.Itoa(r.tocNums[i])
		}
		r.useStyle(tstyle{family: "Helvetica", size: 10.5, color: colText})
		r.pdf.SetXY(marginL+contentW-tocNumW, y)
		r.pdf.CellFormat(tocNumW, tocLH, num, "", 0, "R", false, r.links[i], "")
		r.pdf.SetY(y + tocLH)
	}
}

// page renders documentation page i, starting on a new PDF page.
func (r *renderer) page(i int) {
	pg := r.pages[i]
	title := r.visibleTitle(pg)
	r.section = title
	r.newPage()
	r.starts = append(r.starts, r.pdf.PageNo())
	if i < len(r.links) {
		r.pdf.SetLink(r.links[i], 0, r.pdf.PageNo())
	}
	r.bookmark(titleText(pg), pg.Depth)

	st := tstyle{family: "Helvetica", size: 20, bold: true, color: colHeading}
	r.flow(r.layout(r.appendTokens(nil, title, st), contentW), marginL, 9.5)
	y := r.pdf.GetY() + 2
	r.pdf.SetDrawColor(colRule.r, colRule.g, colRule.b)
	r.pdf.SetLineWidth(0.4)
	r.pdf.Line(marginL, y, marginL+contentW, y)
	r.pdf.SetY(y + 6)

	r.prevKind = ""
	r.counters = map[int]int{}
	for _, b := range pg.Blocks {
		r.block(b)
	}
}

// flow draws lines at x, one after another, breaking pages as needed.
func (r *renderer) flow(lines []tline, x, lh float64) {
	for _, l := range lines {
		r.ensure(lh)
		y := r.pdf.GetY()
		r.drawLine(l, x, y, lh)
		r.pdf.SetY(y + lh)
	}
}
