// Package view holds the reader's HTML: the data each page shows, the
// templates that turn it into HTML, and the embedded stylesheet, script and
// icons they link to. The reader fills a Page and calls Render; nothing
// here reads the database or decides who may see what.
package view

import (
	"html/template"

	"quire/internal/customization"
)

// Kind is what a page shows.
type Kind string

const (
	KindPage         Kind = "page"         // a page of a space
	KindSearch       Kind = "search"       // the site's search page
	KindNotFound     Kind = "notfound"     // 404
	KindUnauthorized Kind = "unauthorized" // 401: a visitor-auth site without a valid token
	KindIndex        Kind = "index"        // a member's list of what an object holds (/app/)
	KindSignIn       Kind = "signin"       // the members' sign-in form (/app/sign-in)
)

// Page is everything one HTML response of the reader shows.
type Page struct {
	Kind   Kind
	Status int // the HTTP status the reader answers with

	// Head.
	Title        string // the document's <title>: page title, then the site's
	Description  string
	Lang         string // BCP 47, from the site's locale ("en" when unset)
	Robots       string // "" or a robots meta value such as "noindex"
	Canonical    string // absolute URL, "" for none
	Alternates   []Alternate
	Favicon      string // URL; "" uses the embedded one
	FaviconEmoji string
	SocialImage  string // absolute URL for og:image, "" for none

	// AssetBase is the URL prefix of the embedded assets (ends with "/"):
	// Render links AssetBase + the asset's hashed name.
	AssetBase string
	// ThemeHref is the URL of the site's theme stylesheet (ThemeCSS of its
	// settings, served under ThemeName), linked after the base stylesheet;
	// "" leaves the default look.
	ThemeHref string
	// Scripts are the site's own scripts, as its admins configured them.
	Scripts []Script

	// Site is the site's frame: header, tabs, footer.
	Site Site
	// Settings is the site space's customization, as published (the site's
	// settings with the site space's overrides merged).
	Settings *customization.Settings

	// Navigation of the site space shown.
	Sections    []Tab  // the site's sections (groups have Children); empty when it has none
	Variants    []Tab  // the current section's site spaces, when more than one
	Sidebar     []Nav  // the page tree of the space, hidden pages left out
	Breadcrumbs []Link // from the space's root to the page's parent
	Prev, Next  *Link  // pagination; nil when off or at an end

	// The page.
	Layout  Layout
	Heading string        // the page's title (h1)
	Lead    string        // the page's description
	Cover   *Image        // the page's cover, when its layout shows one
	Content template.HTML // the rendered document (trusted: from reader/render)
	Outline []Heading     // the headings of the content, for "On this page"
	Actions Actions

	// Search page.
	Search *Search

	// Index is what an index page lists (KindIndex).
	Index *Index
	// SignIn is the members' sign-in form (KindSignIn).
	SignIn *SignIn
	// SignOutURL is where a signed-in member's sign-out form posts, "" on
	// readers' pages.
	SignOutURL string

	// Message is the text of an error page (404, 401).
	Message string
	// LoginURL is where a 401 page sends the visitor, "" for none.
	LoginURL string
}

// Alternate is a <link rel="alternate">.
type Alternate struct {
	Href     string
	Hreflang string // "" when none
}

// Script is a site script: loaded from Src (no inline code).
type Script struct {
	Src string
}

// Site is what every page of a site shows around its content.
type Site struct {
	Title     string
	HomeURL   string // the site's root
	SearchURL string // the search page; the form submits ?q= to it
	// LogoLight and LogoDark are the header logo per theme, "" for none.
	LogoLight, LogoDark string
	HeaderLinks         []Link // links may have Children (a dropdown)
	Announcement        *Announcement
	FooterGroups        []LinkGroup
	Copyright           string
	PrivacyPolicy       string // URL, "" for none
	// ThemeToggle: the reader may switch between light and dark.
	ThemeToggle bool
	// DefaultTheme is "light", "dark" or "" (follow the system).
	DefaultTheme string
}

// Tab is a section, a section group or a site space (variant).
type Tab struct {
	Title    string
	Href     string
	Icon     string // an icon name or emoji, "" for none
	Current  bool
	Children []Tab // a section group's sections
}

// Nav is an entry of the sidebar's page tree.
type Nav struct {
	Title    string
	Href     string // "" for a group, which only holds children
	Icon     string
	Current  bool // the page shown
	Open     bool // the page shown is below it
	External bool // a link page pointing outside the site
	Children []Nav
}

// Link is a titled URL.
type Link struct {
	Title    string
	Href     string
	Children []Link
	// Style is how a header link is drawn: "button-primary",
	// "button-secondary" or "" (a plain link), as the site's header
	// customization says. Other links ignore it.
	Style string
}

// LinkGroup is a titled list of links (a footer column).
type LinkGroup struct {
	Title string
	Links []Link
}

// Announcement is the banner above the header.
type Announcement struct {
	Message string
	Style   string // "info", "warning", "danger", "success"
	Link    *Link
}

// Layout says which parts of the page frame are shown (the page's
// layout settings; all true by default).
type Layout struct {
	Cover, Title, Description, TableOfContents, Outline, Pagination bool
}

// Image is an image with its alternative text.
type Image struct {
	Src, Alt string
}

// Heading is an entry of the page outline.
type Heading struct {
	ID    string // the anchor (id attribute) in Content
	Title string
	Level int // 1, 2 or 3
}

// Actions are the page's extra links, "" when not offered.
type Actions struct {
	EditURL     string // "Edit on Git"
	PDFURL      string // the PDF export
	MarkdownURL string // the page as Markdown
}

// Search is the search page's query and what it found.
type Search struct {
	Query   string
	Results []SearchResult
	// Error is shown instead of results, e.g. a query too long.
	Error string
}

// SearchResult is a page found, with where in it.
type SearchResult struct {
	Title   string
	Href    string
	Space   string        // the site space's title, when the site has several
	Excerpt template.HTML // escaped text with the matches in <mark>
}

// Index lists what an object holds, for a signed-in member: the heading
// and lead are the Page's.
type Index struct {
	Groups []IndexGroup
}

// IndexGroup is a titled list of an index page.
type IndexGroup struct {
	Title string
	Items []IndexItem
	// More: the list was cut (the page says so).
	More bool
}

// IndexItem is an entry of an index page; Href "" is plain text.
type IndexItem struct {
	Title, Href, Note string
}

// SignIn is the members' sign-in form: it posts an API token to Action,
// with Next, the page to return to.
type SignIn struct {
	Action string
	Next   string
	// Error is why the last attempt failed, "" for none.
	Error string
}
