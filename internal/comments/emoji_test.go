package comments

import (
	"strings"
	"testing"
)

func TestEmoji(t *testing.T) {
	for in, want := range map[string]string{
		"👍": "👍", "1f44d": "👍", "1F44D": "👍", "❤️": "❤️", "2764-fe0f": "❤️", "👩‍💻": "👩‍💻", "1f469-200d-1f4bb": "👩‍💻",
		"👍🏽": "👍🏽", "1️⃣": "1️⃣", "🇫🇷": "🇫🇷", "‼️": "‼️", "©": "©",
	} {
		got, err := emoji("e", in)
		if err != nil || got != want {
			t.Errorf("emoji(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "a", "👍 ", " ", "1", "#", "<script>", "👍a", strings.Repeat("👍", 13), "110000", "d800", "\u200d"} {
		if got, err := emoji("e", in); err == nil {
			t.Errorf("emoji(%q) = %q, want an error", in, got)
		}
	}
}
