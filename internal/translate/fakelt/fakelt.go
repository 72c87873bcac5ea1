// Package fakelt is a LibreTranslate-compatible server for tests: it
// speaks LibreTranslate's HTTP API (POST /translate with q a text or an
// array of texts, format text or html, an optional api_key; GET
// /languages) and translates English to French word by word with a small
// dictionary, deterministically. In html, only text is translated (tags
// are kept, and <code> keeps its content), as LibreTranslate does. It
// records every text it was sent.
package fakelt

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"unicode"

	xhtml "golang.org/x/net/html"
)

// Dictionary is the English to French dictionary (lower case).
var Dictionary = map[string]string{
	"welcome": "bienvenue", "to": "à", "the": "le", "guide": "guide", "install": "installez", "run": "lancez",
	"server": "serveur", "read": "lisez", "see": "voyez", "first": "premier", "page": "page", "pages": "pages",
	"hello": "bonjour", "world": "monde", "and": "et", "then": "puis", "start": "démarrez", "with": "avec",
	"quire": "plume", "space": "espace", "docs": "docs", "introduction": "introduction", "setup": "installation",
	"is": "est", "a": "un", "fast": "rapide", "documentation": "documentation", "platform": "plateforme",
	"this": "ce", "link": "lien", "image": "image", "new": "nouveau", "section": "section", "more": "plus",
	"reference": "référence", "api": "api", "configure": "configurez", "your": "votre", "team": "équipe",
}

// Server is a running fake.
type Server struct {
	*httptest.Server
	// Key, when set, is the API key every request must carry.
	Key string

	mu       sync.Mutex
	sent     []string
	requests int
}

// Start starts a fake on 127.0.0.1; it stops when the test ends.
func Start(t interface{ Cleanup(func()) }) *Server {
	s := &Server{}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// Sent returns every text sent for translation so far.
func (s *Server) Sent() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.sent...)
}

// Requests counts the /translate requests served.
func (s *Server) Requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests
}

var languages = []string{"en", "fr", "de", "es", "pt-BR", "zh-Hans", "nb"}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	fail := func(status int, msg string) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(map[string]string{"error": msg})
	}
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/languages":
		var out []map[string]any
		for _, l := range languages {
			out = append(out, map[string]any{"code": l, "name": l, "targets": languages})
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(out)
		return
	case r.Method != http.MethodPost || r.URL.Path != "/translate":
		fail(http.StatusNotFound, "Not Found")
		return
	}
	var req struct {
		Q      json.RawMessage `json:"q"`
		Source string          `json:"source"`
		Target string          `json:"target"`
		Format string          `json:"format"`
		APIKey string          `json:"api_key"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		fail(http.StatusBadRequest, "Invalid request: "+err.Error())
		return
	}
	if s.Key != "" && req.APIKey != s.Key {
		fail(http.StatusForbidden, "Invalid API key")
		return
	}
	known := func(l string) bool {
		for _, x := range languages {
			if x == l {
				return true
			}
		}
		return false
	}
	if !known(req.Source) || !known(req.Target) {
		fail(http.StatusBadRequest, req.Target+" is not supported")
		return
	}
	var list []string
	single := false
	if err := json.Unmarshal(req.Q, &list); err != nil {
		var one string
		if err := json.Unmarshal(req.Q, &one); err != nil {
			fail(http.StatusBadRequest, "Invalid request: missing q parameter")
			return
		}
		list, single = []string{one}, true
	}
	s.mu.Lock()
	s.sent = append(s.sent, list...)
	s.requests++
	s.mu.Unlock()
	out := make([]string, len(list))
	for i, q := range list {
		if req.Format == "html" {
			out[i] = translateHTML(q)
		} else {
			out[i] = translateText(q)
		}
	}
	w.Header().Set("Content-Type", "application/json")
	if single {
		json.NewEncoder(w).Encode(map[string]any{"translatedText": out[0]})
		return
	}
	json.NewEncoder(w).Encode(map[string]any{"translatedText": out})
}

// translateText translates word by word, keeping case and punctuation.
func translateText(s string) string {
	var b, word strings.Builder
	flush := func() {
		w := word.String()
		word.Reset()
		if fr, ok := Dictionary[strings.ToLower(w)]; ok {
			if w != "" && unicode.IsUpper([]rune(w)[0]) {
				r := []rune(fr)
				r[0] = unicode.ToUpper(r[0])
				fr = string(r)
			}
			w = fr
		}
		b.WriteString(w)
	}
	for _, r := range s {
		if unicode.IsLetter(r) {
			word.WriteRune(r)
			continue
		}
		flush()
		b.WriteRune(r)
	}
	flush()
	return b.String()
}

// translateHTML translates the text of an HTML fragment, keeping its
// tags, and the content of <code> as it is.
func translateHTML(s string) string {
	var b strings.Builder
	z := xhtml.NewTokenizer(strings.NewReader(s))
	code := 0
	for {
		tt := z.Next()
		if tt == xhtml.ErrorToken {
			return b.String()
		}
		raw := string(z.Raw())
		switch tt {
		case xhtml.TextToken:
			if code > 0 {
				b.WriteString(raw)
			} else {
				b.WriteString(xhtml.EscapeString(translateText(xhtml.UnescapeString(raw))))
			}
		case xhtml.StartTagToken:
			if name, _ := z.TagName(); string(name) == "code" {
				code++
			}
			b.WriteString(raw)
		case xhtml.EndTagToken:
			if name, _ := z.TagName(); string(name) == "code" && code > 0 {
				code--
			}
			b.WriteString(raw)
		default:
			b.WriteString(raw)
		}
	}
}
