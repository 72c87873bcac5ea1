package textcluster

// Threshold is the least cosine similarity, between a text's TF-IDF vector
// and a cluster's centroid (the sum of its texts' TF vectors, weighted by
// IDF), for the text to join the cluster. It was chosen on the support
// corpus of internal/conversations' tests (see its figures in docs/testing.md).
const Threshold = 0.14

// Centroid is a cluster as Assign compares it: its position among the
// clusters (ties go to the lowest) and the sum of its texts' TF vectors.
type Centroid struct {
	Seq int
	Sum Vector
}

// Match is the cluster a text belongs to.
type Match struct {
	// Index is the position of the chosen centroid in the list given to
	// Assign; -1 when the text should start a cluster of its own.
	Index int
	// Similarity is the cosine similarity to the closest centroid (0 when
	// there is none).
	Similarity float64
}

// Assign finds the centroid closest to a text's TF vector, weighting both
// by the corpus' IDF: the text joins it when the similarity reaches
// threshold. The work is linear in the size of the centroids, not in the
// number of texts clustered.
func Assign(tf Vector, centroids []Centroid, c *Corpus, threshold float64) Match {
	q := c.Weighted(tf)
	best := Match{Index: -1}
	bestSeq := 0
	for i, ct := range centroids {
		s := Cosine(q, c.Weighted(ct.Sum))
		if best.Index < 0 && i == 0 || s > best.Similarity || (s == best.Similarity && ct.Seq < bestSeq) {
			best = Match{Index: i, Similarity: s}
			bestSeq = ct.Seq
		}
	}
	if best.Similarity < threshold {
		best.Index = -1
	}
	return best
}

// KeyTerms are the n most characteristic terms of a centroid: its weights
// times IDF, so that terms frequent in this cluster but rare elsewhere come
// first.
func KeyTerms(sum Vector, c *Corpus, n int) []Term {
	return c.Weighted(sum).Top(n)
}
