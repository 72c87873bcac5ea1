package main

import "testing"

func TestSameObjects(t *testing.T) {
	quire := []byte(`{"data":{"site":{"id":"s1","title":"Docs","organization":{"id":"o1","title":"Org"},"sections":{"nodes":[{"id":"a","title":"A","siteSpaces":{"nodes":[{"id":"x","space":{"id":"p","title":"P","visibility":"PUBLIC"}}]}}]}}}}`)
	peer := []byte(`{"data":{"site":{"title":"Docs","id":"s1","organization":{"title":"Org","id":"o1"},"sections":{"nodes":[{"title":"A","id":"a","siteSpaces":{"nodes":[{"space":{"visibility":"public","title":"P","id":"p"},"id":"x"}]}}]}}}}`)
	if d := sameObjects(quire, peer); d != "" {
		t.Errorf("same objects, other order and visibility spelling: %s", d)
	}
	other := []byte(`{"data":{"site":{"id":"s1","title":"Docs","organization":{"id":"o1","title":"Org"},"sections":{"nodes":[]}}}}`)
	if d := sameObjects(quire, other); d == "" {
		t.Error("a missing section went unnoticed")
	}
	if d := sameObjects([]byte(`{"data":null}`), []byte(`{"data":null}`)); d == "" {
		t.Error("answers without ids compare equal")
	}
}

func TestSequenceIsStable(t *testing.T) {
	a, b := sequence(50, 1), sequence(50, 1)
	for i := range a {
		if a[i] != b[i] || a[i] < 0 || a[i] >= 50 {
			t.Fatalf("sequence differs or leaves the range at %d: %d %d", i, a[i], b[i])
		}
	}
}
