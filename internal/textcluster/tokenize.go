// Package textcluster groups short texts by what they are about: a
// tokenizer with English stop words and Porter stemming, TF-IDF term
// vectors with cosine similarity, and the steps of an incremental
// clustering in which a new text is compared with the centroids of the
// clusters made so far (not with every text), joins the closest when it is
// similar enough, or starts a cluster of its own. Everything is
// deterministic: the same texts in the same order give the same clusters.
package textcluster

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Token is a word of a text: its stem (the term vectors count) and its
// spelling in the text (lower case), for labels.
type Token struct {
	Stem string
	Form string
}

// MaxTokens bounds the tokens read from one text: longer texts are cut, so
// that the work per text is bounded.
const MaxTokens = 2000

// Tokenize splits text into lower-case words, drops stop words, words of
// one character and numbers shorter than three digits (error codes such as
// 500 are kept), and stems the rest.
func Tokenize(text string) []Token {
	var out []Token
	var word strings.Builder
	flush := func() {
		if word.Len() == 0 {
			return
		}
		w := word.String()
		word.Reset()
		if tok, ok := token(w); ok && len(out) < MaxTokens {
			out = append(out, tok)
		}
	}
	for i, r := range text {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			word.WriteRune(unicode.ToLower(r))
		case r == '\'' || r == '’':
			// Contractions stay one word ("can't" is a stop word).
			next, _ := utf8.DecodeRuneInString(text[min(i+utf8.RuneLen(r), len(text)):])
			if word.Len() > 0 && unicode.IsLetter(next) {
				word.WriteByte('\'')
				continue
			}
			flush()
		default:
			flush()
		}
		if len(out) >= MaxTokens {
			return out
		}
	}
	flush()
	return out
}

func token(w string) (Token, bool) {
	if utf8.RuneCountInString(w) < 2 || stopWords[w] {
		return Token{}, false
	}
	digits := true
	for _, r := range w {
		if !unicode.IsDigit(r) {
			digits = false
			break
		}
	}
	if digits && len(w) < 3 {
		return Token{}, false
	}
	if strings.ContainsRune(w, '\'') {
		w = strings.ReplaceAll(w, "'", "")
		if stopWords[w] {
			return Token{}, false
		}
	}
	return Token{Stem: Stem(w), Form: w}, true
}

// stopWords are English function words, and the words of support
// conversations that say nothing of what they are about (greetings,
// thanks, "problem", "issue", "help").
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`
a about above after again against all also am an and any are aren't as at be because been before being below
between both but by can can't cannot could couldn't did didn't do does doesn't doing don't down during each few
for from further had hadn't has hasn't have haven't having he he'd he'll he's her here here's hers herself him
himself his how how's i i'd i'll i'm i've if in into is isn't it it's its itself let's me more most mustn't my
myself no nor not of off on once only or other ought our ours ourselves out over own same shan't she she'd
she'll she's should shouldn't so some such than that that's the their theirs them themselves then there there's
these they they'd they'll they're they've this those through to too under until up very was wasn't we we'd
we'll we're we've were weren't what what's when when's where where's which while who who's whom why why's with
won't would wouldn't you you'd you'll you're you've your yours yourself yourselves
just still even really also already yet now ever anyway though although however since like maybe perhaps
quite rather much many lot lots get gets got getting go goes going gone make makes made one two thing things
something anything nothing everything someone anyone way ways yes ok okay oh hey hi hello dear thanks thank
thx please pls regards cheers best team guys folks sir madam hope hoping help helps helped helping need needs
needed want wants wanted try tried trying tries know knew let lets see seen seems seem look looks looked
looking problem problems issue issues question questions happen happens happened happening time times today
yesterday tomorrow morning afternoon evening day days week weeks month months year years ago able unable
sure well good great fine bad able would could might must shall will us im ive dont cant doesnt didnt wont
isnt arent wasnt werent hasnt havent couldnt shouldnt wouldnt thats theres whats youre theyre lets
again every each always never sometimes often also back new use used using work works worked working
say says said tell told ask asked asking hear reach reaching contact contacting support customer
`) {
		m[w] = true
	}
	return m
}()
