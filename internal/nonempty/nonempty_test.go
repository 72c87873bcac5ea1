package nonempty

import "testing"

func TestString(t *testing.T) {
	if String("") != nil {
		t.Error(`String("") is not nil`)
	}
	if p := String("x"); p == nil || *p != "x" {
		t.Errorf(`String("x") = %v`, p)
	}
}
