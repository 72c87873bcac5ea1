// Package textcut shortens text to a limit without splitting a character.
package textcut

import "unicode/utf8"

// Bytes cuts s to at most n bytes, backing off to the start of the
// character at the cut, for limits on stored or sent bytes.
func Bytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// Runes cuts s to its first n characters, for limits that the API states
// in characters (titles, descriptions).
func Runes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}
