package textcluster

import (
	"reflect"
	"testing"
)

func stems(ts []Token) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Stem
	}
	return out
}

func TestTokenize(t *testing.T) {
	got := stems(Tokenize("Hi team! I can't log in since the SSO update; the page says Error 500 (again). Thanks"))
	want := []string{"log", "sso", "updat", "page", "error", "500"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Tokenize = %v, want %v", got, want)
	}
	if got := Tokenize("Ünïcode wörds; 42 is dropped, 404 kept"); len(got) != 5 || got[0].Form != "ünïcode" || got[3].Stem != "404" {
		t.Errorf("Tokenize = %+v", got)
	}
	long := make([]byte, 0, 10*MaxTokens)
	for i := 0; i < 2*MaxTokens; i++ {
		long = append(long, "word "...)
	}
	if n := len(Tokenize(string(long))); n != MaxTokens {
		t.Errorf("a long text gave %d tokens, want the limit %d", n, MaxTokens)
	}
}

func TestCosineAndIDF(t *testing.T) {
	c := &Corpus{DF: map[string]int{}}
	docs := []Vector{
		Counts(Tokenize("export pdf fails")),
		Counts(Tokenize("pdf export is blank")),
		Counts(Tokenize("login with sso fails")),
	}
	for _, d := range docs {
		c.AddDocument(d)
	}
	if c.IDF("fail") >= c.IDF("sso") {
		t.Errorf("a term of two documents weighs %v, one of one document %v", c.IDF("fail"), c.IDF("sso"))
	}
	a, b, x := c.Weighted(TF(docs[0])), c.Weighted(TF(docs[1])), c.Weighted(TF(docs[2]))
	if Cosine(a, b) <= Cosine(a, x) {
		t.Errorf("pdf export texts are %v alike, export and login %v", Cosine(a, b), Cosine(a, x))
	}
	if s := Cosine(a, a); s < 0.999999 || s > 1.000001 {
		t.Errorf("a text is %v like itself", s)
	}
	if Cosine(a, Vector{}) != 0 {
		t.Error("an empty vector is like something")
	}
	c.RemoveDocument(docs[2])
	if c.N != 2 || c.DF["sso"] != 0 || c.DF["fail"] != 1 {
		t.Errorf("after removal: %+v", c)
	}
}

func TestAssign(t *testing.T) {
	c := &Corpus{DF: map[string]int{}}
	texts := []string{
		"pdf export fails with a blank page",
		"sso login redirects forever",
		"exporting to pdf gives blank pages",
		"cannot login through sso, redirect loop",
		"billing invoice shows the wrong vat",
	}
	var centroids []Centroid
	var got []int
	for _, txt := range texts {
		counts := Counts(Tokenize(txt))
		c.AddDocument(counts)
		tf := TF(counts)
		m := Assign(tf, centroids, c, Threshold)
		if m.Index < 0 {
			centroids = append(centroids, Centroid{Seq: len(centroids) + 1, Sum: Vector{}})
			m.Index = len(centroids) - 1
		}
		centroids[m.Index].Sum.Add(tf)
		got = append(got, m.Index)
	}
	if want := []int{0, 1, 0, 1, 2}; !reflect.DeepEqual(got, want) {
		t.Errorf("clusters %v, want %v", got, want)
	}
	top := KeyTerms(centroids[0].Sum, c, 2)
	if len(top) != 2 || top[0].Term != "blank" && top[0].Term != "pdf" {
		t.Errorf("key terms of the pdf cluster: %+v", top)
	}
	if m := Assign(TF(Counts(Tokenize("pdf export blank"))), nil, c, Threshold); m.Index != -1 {
		t.Errorf("no centroid, match %+v", m)
	}
	// Ties go to the older cluster.
	same := []Centroid{{Seq: 2, Sum: Vector{"pdf": 1}}, {Seq: 1, Sum: Vector{"pdf": 1}}}
	if m := Assign(Vector{"pdf": 1}, same, c, Threshold); m.Index != 1 {
		t.Errorf("tie went to %d", m.Index)
	}
}
