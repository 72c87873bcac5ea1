package translate

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Provider translates texts. Quire ships LibreTranslate; tests use a
// LibreTranslate-compatible server of their own.
type Provider interface {
	// Translate translates texts (HTML fragments, which it keeps as HTML)
	// from one of Quire's language codes to another, returning one text
	// per text given, in order.
	Translate(ctx context.Context, from, to string, texts []string) ([]string, error)
}

// Batch limits of one call to the translation server: a page of many
// paragraphs is sent in several requests.
const (
	maxBatchTexts = 50
	maxBatchChars = 20000
)

// LibreTranslate is the Provider of a LibreTranslate server
// (https://libretranslate.com, open source and self-hostable): POST
// /translate with q an array of texts and format html, GET /languages for
// the codes it knows.
type LibreTranslate struct {
	// URL is the server's base URL.
	URL string
	// Key is its API key, when it needs one.
	Key    string
	Client *http.Client

	mu    sync.Mutex
	codes map[string]bool // nil until read
}

// NewLibreTranslate returns the provider of the server at url.
func NewLibreTranslate(url, key string) *LibreTranslate {
	return &LibreTranslate{URL: strings.TrimRight(url, "/"), Key: key, Client: &http.Client{Timeout: 2 * time.Minute}}
}

// serverCodes are the codes LibreTranslate may use for a Quire language,
// in order of preference: versions differ (Chinese was zh, then zh-Hans;
// Norwegian is nb).
var serverCodes = map[string][]string{
	"pt-br": {"pt-BR", "pb", "pt"},
	"zh":    {"zh-Hans", "zh"},
	"yue":   {"zh-Hant", "zt"},
	"no":    {"nb", "no"},
}

// ErrUnsupported is wrapped by the error of a language the server does not
// translate.
var ErrUnsupported = errors.New("language not supported by the translation server")

// code is the server's code for a Quire language code.
func (l *LibreTranslate) code(ctx context.Context, lang string) (string, error) {
	cands := serverCodes[lang]
	if cands == nil {
		cands = []string{lang}
	}
	codes, err := l.languages(ctx)
	if err != nil || codes == nil {
		// An older server without /languages: try the usual code.
		return cands[0], nil
	}
	for _, c := range cands {
		if codes[c] {
			return c, nil
		}
	}
	return "", fmt.Errorf("%w: the server at %s does not list %q", ErrUnsupported, l.URL, lang)
}

func (l *LibreTranslate) languages(ctx context.Context) (map[string]bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.codes != nil {
		return l.codes, nil
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, l.URL+"/languages", nil)
	if err != nil {
		return nil, err
	}
	res, err := l.Client.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("languages: %s", res.Status)
	}
	var list []struct {
		Code string `json:"code"`
	}
	if err := json.NewDecoder(io.LimitReader(res.Body, 1<<20)).Decode(&list); err != nil {
		return nil, err
	}
	l.codes = map[string]bool{}
	for _, x := range list {
		l.codes[x.Code] = true
	}
	return l.codes, nil
}

// Translate sends the texts in batches of at most 50 texts and 20,000
// characters.
func (l *LibreTranslate) Translate(ctx context.Context, from, to string, texts []string) ([]string, error) {
	src, err := l.code(ctx, from)
	if err != nil {
		return nil, err
	}
	dst, err := l.code(ctx, to)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(texts))
	for start := 0; start < len(texts); {
		end, size := start, 0
		for end < len(texts) && end-start < maxBatchTexts && (end == start || size+len(texts[end]) <= maxBatchChars) {
			size += len(texts[end])
			end++
		}
		got, err := l.call(ctx, src, dst, texts[start:end])
		if err != nil {
			return nil, err
		}
		out = append(out, got...)
		start = end
	}
	return out, nil
}

type ltRequest struct {
	Q      []string `json:"q"`
	Source string   `json:"source"`
	Target string   `json:"target"`
	Format string   `json:"format"`
	APIKey string   `json:"api_key,omitempty"`
}

type ltResponse struct {
	TranslatedText json.RawMessage `json:"translatedText"`
	Error          string          `json:"error"`
}

// call makes one request; a busy server (429, 503) is asked again twice,
// after 1 and 2 seconds.
func (l *LibreTranslate) call(ctx context.Context, src, dst string, q []string) ([]string, error) {
	body, _ := json.Marshal(ltRequest{Q: q, Source: src, Target: dst, Format: "html", APIKey: l.Key})
	for attempt := 0; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, l.URL+"/translate", bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/json")
		res, err := l.Client.Do(req)
		if err != nil {
			return nil, fmt.Errorf("translation server: %w", err)
		}
		raw, err := io.ReadAll(io.LimitReader(res.Body, 16<<20))
		res.Body.Close()
		if err != nil {
			return nil, fmt.Errorf("translation server: %w", err)
		}
		var r ltResponse
		jerr := json.Unmarshal(raw, &r)
		if (res.StatusCode == http.StatusTooManyRequests || res.StatusCode == http.StatusServiceUnavailable) && attempt < 2 {
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(time.Duration(attempt+1) * time.Second):
			}
			continue
		}
		if res.StatusCode != http.StatusOK {
			msg := r.Error
			if msg == "" {
				msg = strings.TrimSpace(string(raw[:min(len(raw), 200)]))
			}
			return nil, &ServerError{Status: res.StatusCode, Message: msg}
		}
		if jerr != nil {
			return nil, fmt.Errorf("translation server: the answer is not JSON: %w", jerr)
		}
		var list []string
		if err := json.Unmarshal(r.TranslatedText, &list); err != nil {
			var one string
			if err := json.Unmarshal(r.TranslatedText, &one); err != nil || len(q) != 1 {
				return nil, errors.New("translation server: translatedText is neither a text nor a list of texts")
			}
			list = []string{one}
		}
		if len(list) != len(q) {
			return nil, fmt.Errorf("translation server: %d texts sent, %d translated", len(q), len(list))
		}
		return list, nil
	}
}

// ServerError is a refusal by the translation server.
type ServerError struct {
	Status  int
	Message string
}

func (e *ServerError) Error() string {
	return fmt.Sprintf("translation server answered %d: %s", e.Status, e.Message)
}

// Permanent tells whether trying again cannot help (a refused key, a bad
// request), as opposed to a server that is busy or failing.
func (e *ServerError) Permanent() bool {
	return e.Status == http.StatusBadRequest || e.Status == http.StatusForbidden || e.Status == http.StatusUnauthorized
}
