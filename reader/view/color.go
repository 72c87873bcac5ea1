package view

import (
	"fmt"
	"math"
)

// rgb is a color in 8-bit sRGB channels.
type rgb struct{ r, g, b uint8 }

// parseColor reads "#rgb" or "#rrggbb" and nothing else: the theme
// stylesheet is built from settings a site admin typed, so anything that is
// not plainly a hex color is refused here rather than escaped, and the
// caller falls back to a default (customization validates the same shape;
// this is the second line).
func parseColor(s string) (rgb, bool) {
	if len(s) != 4 && len(s) != 7 || s[0] != '#' {
		return rgb{}, false
	}
	var v [6]uint8
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			v[i-1] = c - '0'
		case c >= 'a' && c <= 'f':
			v[i-1] = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			v[i-1] = c - 'A' + 10
		default:
			return rgb{}, false
		}
	}
	if len(s) == 4 {
		return rgb{v[0] * 17, v[1] * 17, v[2] * 17}, true
	}
	return rgb{v[0]<<4 | v[1], v[2]<<4 | v[3], v[4]<<4 | v[5]}, true
}

// colorOr is the parsed color, or def (a constant of this package) when s is
// not a hex color.
func colorOr(s string, def rgb) rgb {
	if c, ok := parseColor(s); ok {
		return c
	}
	return def
}

// String is the color as "#rrggbb", the only form that reaches the CSS.
func (c rgb) String() string { return fmt.Sprintf("#%02x%02x%02x", c.r, c.g, c.b) }

// luminance is the WCAG relative luminance.
func (c rgb) luminance() float64 {
	ch := func(v uint8) float64 {
		f := float64(v) / 255
		if f <= 0.03928 {
			return f / 12.92
		}
		return math.Pow((f+0.055)/1.055, 2.4)
	}
	return 0.2126*ch(c.r) + 0.7152*ch(c.g) + 0.0722*ch(c.b)
}

// contrast is the WCAG contrast ratio of two colors (1 to 21).
func contrast(a, b rgb) float64 {
	la, lb := a.luminance(), b.luminance()
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// mix is a + (b-a)*t, channel by channel.
func mix(a, b rgb, t float64) rgb {
	m := func(x, y uint8) uint8 { return uint8(math.Round(float64(x) + (float64(y)-float64(x))*t)) }
	return rgb{m(a.r, b.r), m(a.g, b.g), m(a.b, b.b)}
}

var (
	white = rgb{255, 255, 255}
	black = rgb{0, 0, 0}
)

// readable moves c toward black or white (whichever bg is farther from)
// until it reaches ratio against bg, so that a brand color an admin picked
// for its looks still yields text that passes WCAG AA.
func readable(c, bg rgb, ratio float64) rgb {
	if contrast(c, bg) >= ratio {
		return c
	}
	toward := black
	if bg.luminance() < 0.5 {
		toward = white
	}
	for t := 0.05; t < 1; t += 0.05 {
		if m := mix(c, toward, t); contrast(m, bg) >= ratio {
			return m
		}
	}
	return toward
}

// onColor is the text color (near white or near black) for text on c.
func onColor(c rgb) rgb {
	light, dark := rgb{255, 255, 255}, rgb{17, 17, 17}
	if contrast(light, c) >= contrast(dark, c) {
		return light
	}
	return dark
}
