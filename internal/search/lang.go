package search

import "quire/internal/types"

// configs maps a space language to the PostgreSQL text search
// configuration that stems it (the Snowball stemmers PostgreSQL ships).
// Languages PostgreSQL has no stemmer for use "simple": words are matched
// as written, case aside.
var configs = map[types.Language]string{
	"en": "english", "fr": "french", "de": "german", "es": "spanish", "it": "italian",
	"pt": "portuguese", "pt-br": "portuguese", "ru": "russian", "ar": "arabic", "hi": "hindi",
	"nl": "dutch", "tr": "turkish", "sv": "swedish", "no": "norwegian", "da": "danish",
	"fi": "finnish", "el": "greek", "hu": "hungarian", "ro": "romanian", "id": "indonesian",
	"lt": "lithuanian",
}

// DefaultConfig is the configuration of spaces without a language.
const DefaultConfig = "english"

// Config returns the PostgreSQL text search configuration of a space's
// language (nil: the space has none).
func Config(lang *types.Language) string {
	if lang == nil || *lang == "" {
		return DefaultConfig
	}
	if c, ok := configs[*lang]; ok {
		return c
	}
	return "simple"
}

// Configs lists every configuration Config may return.
func Configs() []string {
	seen := map[string]bool{DefaultConfig: true, "simple": true}
	out := []string{DefaultConfig, "simple"}
	for _, c := range configs {
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	return out
}

// sqliteConfig names what SQLite indexes with: one tokenizer for every
// language (FTS5's Porter stemmer, which stems English).
const sqliteConfig = "porter"
