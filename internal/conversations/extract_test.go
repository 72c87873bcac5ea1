package conversations

import (
	"strings"
	"testing"
)

func TestExtractImpact(t *testing.T) {
	for _, tc := range []struct {
		body, impact string
		signal       string
	}{
		{"All my pages disappeared after the merge.", ImpactHigh, SignalDataLoss},
		{"We are completely blocked: nobody can log in.", ImpactHigh, SignalBlocking},
		{"The export fails again, third time this week.", ImpactHigh, SignalRepeated},
		{"Search stopped working since the last update.", ImpactHigh, SignalRegression},
		{"The export fails, but for now I use the print dialog as a workaround.", ImpactMedium, SignalWorkaround},
		{"The PDF export shows an error.", ImpactMedium, SignalFailure},
		{"It would be nice to have a dark mode.", ImpactLow, SignalFriction},
		{"How do I change my avatar?", ImpactLow, SignalRequest},
	} {
		got := Extract("", []Part{{Role: "user", Body: tc.body}})
		if len(got) != 1 {
			t.Errorf("%q: %d issues", tc.body, len(got))
			continue
		}
		if got[0].Impact != tc.impact {
			t.Errorf("%q: impact %s, want %s (signals %v)", tc.body, got[0].Impact, tc.impact, got[0].Signals)
		}
		found := false
		for _, s := range got[0].Signals {
			found = found || s.Kind == tc.signal
		}
		if !found {
			t.Errorf("%q: no %s signal in %v", tc.body, tc.signal, got[0].Signals)
		}
	}
}

func TestExtractIssues(t *testing.T) {
	parts := []Part{
		{Role: "user", Body: "<p>Hi team,</p><p>Exporting to <b>PDF</b> gives a blank file.</p>"},
		{Role: "assistant", Body: "Sorry! Which browser do you use? It fails for everyone?"},
		{Role: "user", Body: "Chrome. It fails again today.\n\nAlso, the invitation emails never arrive for new members."},
	}
	got := Extract("PDF export broken", parts)
	if len(got) != 2 {
		t.Fatalf("issues: %+v", got)
	}
	if got[0].Title != "PDF export broken" || !strings.Contains(got[1].Title, "invitation emails never arrive") {
		t.Errorf("titles %q, %q", got[0].Title, got[1].Title)
	}
	// The follow-up joined the first issue and makes it a repeated failure;
	// the assistant's words are not the user's.
	if got[0].Impact != ImpactHigh || len(got[0].Sentences) != 2 {
		t.Errorf("first issue: %+v", got[0])
	}
	for _, s := range append(got[0].Sentences, got[1].Sentences...) {
		if strings.Contains(s, "browser") || strings.Contains(s, "<") {
			t.Errorf("sentence %q is not the user's plain words", s)
		}
	}
	if got := Extract("", []Part{{Role: "user", Body: "Thanks!"}}); len(got) != 0 {
		t.Errorf("a thank-you raised %+v", got)
	}
	if got := Extract("", []Part{{Role: "assistant", Body: "The export fails."}}); len(got) != 0 {
		t.Errorf("an assistant's message raised %+v", got)
	}
	long := strings.Repeat("word ", 200) + "fails"
	if got := Extract("", []Part{{Role: "user", Body: long}}); len(got) != 1 || len([]rune(got[0].Title)) > maxTitle {
		t.Errorf("long sentence: %+v", got)
	}
}
