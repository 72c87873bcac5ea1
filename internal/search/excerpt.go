package search

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// excerpt is at most max characters of text around the first word that
// begins like one of terms (the first letters a stemmer keeps of it, so
// that "configuring" finds "configure"), cut between words, with "…"
// where text was cut; the start of text when no word does.
func excerpt(text string, terms []string, max int) string {
	if utf8.RuneCountInString(text) <= max {
		return text
	}
	at := firstMatch(text, terms)
	// Start a little before the match, at a word boundary.
	start := 0
	if at > 0 {
		start = backRunes(text, at, max/5)
		if start > 0 {
			if sp := strings.IndexAny(text[start:at], " \t\n"); sp >= 0 {
				start += sp + 1
			}
		}
	}
	end := forwardRunes(text, start, max-2)
	if end < len(text) {
		if sp := strings.LastIndexAny(text[start:end], " \t\n"); sp > 0 && start+sp > at {
			end = start + sp
		}
	}
	out := strings.TrimSpace(text[start:end])
	if start > 0 {
		out = "…" + out
	}
	if end < len(text) {
		out += "…"
	}
	return out
}

// occurrences counts the words of text that begin like one of terms (see
// firstMatch).
func occurrences(text string, terms []string) int {
	prefixes := stems(terms)
	lower := strings.ToLower(text)
	n := 0
	for i := range wordStarts(lower) {
		for _, p := range prefixes {
			if strings.HasPrefix(lower[i:], p) {
				n++
				break
			}
		}
	}
	return n
}

// stems are the beginnings of terms a stemmer would keep: the whole of
// words of up to five letters, the rest less their last three letters
// (but five at least).
func stems(terms []string) []string {
	out := make([]string, 0, len(terms))
	for _, t := range terms {
		r := []rune(strings.ToLower(t))
		keep := len(r)
		if keep > 5 {
			keep = max(5, keep-3)
		}
		out = append(out, string(r[:keep]))
	}
	return out
}

// wordStarts yields the byte offsets where words of s begin.
func wordStarts(s string) func(func(int) bool) {
	return func(yield func(int) bool) {
		inWord := false
		for i, r := range s {
			word := unicode.IsLetter(r) || unicode.IsDigit(r)
			if word && !inWord && !yield(i) {
				return
			}
			inWord = word
		}
	}
}

// firstMatch is the byte offset of the first word of text that begins with
// the stem-like prefix of a term, or 0.
func firstMatch(text string, terms []string) int {
	if len(terms) == 0 {
		return 0
	}
	prefixes := stems(terms)
	lower := strings.ToLower(text)
	if len(lower) != len(text) {
		// Lower-casing changed byte lengths: offsets would not line up.
		lower = text
	}
	for i := range wordStarts(lower) {
		for _, p := range prefixes {
			if strings.HasPrefix(lower[i:], p) {
				return i
			}
		}
	}
	return 0
}

// backRunes is the offset n characters before at (or 0).
func backRunes(s string, at, n int) int {
	for ; n > 0 && at > 0; n-- {
		_, size := utf8.DecodeLastRuneInString(s[:at])
		at -= size
	}
	return at
}

// forwardRunes is the offset n characters after from (or len(s)).
func forwardRunes(s string, from, n int) int {
	for ; n > 0 && from < len(s); n-- {
		_, size := utf8.DecodeRuneInString(s[from:])
		from += size
	}
	return from
}
