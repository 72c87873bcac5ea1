package catalog

// Length limits of spaces' and collections' fields, in characters. The
// engine enforces them; the REST bodies and the GraphQL inputs declare the
// same numbers, and a test in rest/ holds those declarations to these
// constants.
const (
	// TitleMax bounds a space's or a collection's title.
	TitleMax = 50
	// EmojiMax bounds a space's emoji.
	EmojiMax = 50
	// IconMax bounds the URL of a space's custom icon (at least 1
	// character).
	IconMax = 2048
	// DescriptionMax bounds a collection's description.
	DescriptionMax = 100
)
