package comments

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"quire/internal/apierr"
)

// codePoints is an emoji written as hexadecimal code points ("1f44d",
// "1f469-200d-1f4bb"), the other spelling the API accepts.
var codePoints = regexp.MustCompile(`^[0-9a-fA-F]{2,6}(-[0-9a-fA-F]{2,6}){0,9}$`)

// emoji checks a reaction and returns it as characters, so that both
// spellings of one emoji are one reaction. An emoji is a symbol (Unicode
// category So, such as 👍 or ❤; a few are Sm or Po, such as ↔ or ‼), optionally with what emoji sequences
// join to it: variation selectors, skin tones, zero width joiners, tags,
// and keycaps (1️⃣). Errors name field.
func emoji(field, s string) (string, error) {
	if codePoints.MatchString(s) {
		var b strings.Builder
		for _, part := range strings.Split(s, "-") {
			n, err := strconv.ParseUint(part, 16, 32)
			if err != nil || n > unicode.MaxRune || !utf8.ValidRune(rune(n)) {
				return "", apierr.Invalid(field, "%s: %q is not an emoji", field, s)
			}
			b.WriteRune(rune(n))
		}
		s = b.String()
	}
	if s == "" || len(s) > MaxEmoji || !utf8.ValidString(s) {
		return "", apierr.Invalid(field, "%s: %q is not an emoji (at most %d bytes)", field, s, MaxEmoji)
	}
	symbols, keycap := 0, strings.ContainsRune(s, 0x20E3)
	for _, r := range s {
		switch {
		case unicode.Is(unicode.So, r), unicode.Is(unicode.Sm, r) && r > 0x7F, r >= 0x1F3FB && r <= 0x1F3FF,
			r == 0x203C, r == 0x2049, r == 0x303D:
			symbols++
		case r == 0x200D, r >= 0xFE00 && r <= 0xFE0F, r >= 0xE0020 && r <= 0xE007F, r == 0x20E3:
		case keycap && (r >= '0' && r <= '9' || r == '#' || r == '*'):
			symbols++
		default:
			return "", apierr.Invalid(field, "%s: %q is not an emoji", field, s)
		}
	}
	if symbols == 0 {
		return "", apierr.Invalid(field, "%s: %q is not an emoji", field, s)
	}
	return s, nil
}
