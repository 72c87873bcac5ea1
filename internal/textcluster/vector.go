package textcluster

import (
	"cmp"
	"math"
	"slices"
)

// Vector maps terms (stems) to weights.
type Vector map[string]float64

// Counts are the term counts of tokens.
func Counts(tokens []Token) Vector {
	v := Vector{}
	for _, t := range tokens {
		v[t.Stem]++
	}
	return v
}

// TF turns term counts into sublinear term frequencies, 1 + ln(count), so
// that a word repeated in one text does not outweigh the others.
func TF(counts Vector) Vector {
	out := make(Vector, len(counts))
	for t, c := range counts {
		if c > 0 {
			out[t] = 1 + math.Log(c)
		}
	}
	return out
}

// Add adds w to v.
func (v Vector) Add(w Vector) {
	for t, x := range w {
		v[t] += x
	}
}

// Sub takes w from v, dropping terms that fall to zero.
func (v Vector) Sub(w Vector) {
	for t, x := range w {
		if n := v[t] - x; n > 1e-9 {
			v[t] = n
		} else {
			delete(v, t)
		}
	}
}

// Corpus holds the document frequency of each term over N documents.
type Corpus struct {
	N  int
	DF map[string]int
}

// AddDocument counts the terms of a document.
func (c *Corpus) AddDocument(terms Vector) {
	c.N++
	for t := range terms {
		c.DF[t]++
	}
}

// RemoveDocument takes a document's terms out of the counts again.
func (c *Corpus) RemoveDocument(terms Vector) {
	if c.N > 0 {
		c.N--
	}
	for t := range terms {
		if c.DF[t] <= 1 {
			delete(c.DF, t)
		} else {
			c.DF[t]--
		}
	}
}

// IDF is the smoothed inverse document frequency of a term: ln((1+N) /
// (1+df)) + 1, never zero, so that a term every document has still
// counts a little.
func (c *Corpus) IDF(term string) float64 {
	return math.Log(float64(1+c.N)/float64(1+c.DF[term])) + 1
}

// Weighted returns v with each term weighted by its IDF.
func (c *Corpus) Weighted(v Vector) Vector {
	out := make(Vector, len(v))
	for t, x := range v {
		out[t] = x * c.IDF(t)
	}
	return out
}

// Norm is the Euclidean length of v.
func (v Vector) Norm() float64 {
	s := 0.0
	for _, k := range v.sortedTerms() {
		s += v[k] * v[k]
	}
	return math.Sqrt(s)
}

// Cosine is the cosine similarity of a and b (0 when either is empty).
func Cosine(a, b Vector) float64 {
	if len(a) > len(b) {
		a, b = b, a
	}
	dot := 0.0
	// Summed in term order: the same vectors give the same result to the
	// last bit, whatever the order of the map.
	for _, t := range a.sortedTerms() {
		dot += a[t] * b[t]
	}
	na, nb := a.Norm(), b.Norm()
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / (na * nb)
}

func (v Vector) sortedTerms() []string {
	keys := make([]string, 0, len(v))
	for k := range v {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Term is a term and its weight.
type Term struct {
	Term   string
	Weight float64
}

// Top returns the n heaviest terms of v, heaviest first (ties by term).
func (v Vector) Top(n int) []Term {
	out := make([]Term, 0, len(v))
	for t, w := range v {
		out = append(out, Term{t, w})
	}
	slices.SortFunc(out, func(a, b Term) int {
		if c := cmp.Compare(b.Weight, a.Weight); c != 0 {
			return c
		}
		return cmp.Compare(a.Term, b.Term)
	})
	if len(out) > n {
		out = out[:n]
	}
	return out
}
