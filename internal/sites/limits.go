package sites

// Length limits of sites' fields, in characters. The engine enforces them;
// the REST bodies and the GraphQL inputs declare the same numbers, and a
// test in rest/ holds those declarations to these constants.
const (
	// TitleMin and TitleMax bound a site's or a section's title.
	TitleMin = 2
	TitleMax = 128
	// BasenameMax bounds a site's basename (at least 1 character).
	BasenameMax = 100
	// PathMax bounds a site space's path (at least 1 character).
	PathMax = 100
	// GroupTitleMax bounds a section group's title (at least 1 character).
	GroupTitleMax = 100
	// IconMax bounds a section's or a section group's icon.
	IconMax = 50
	// DescriptionMax bounds a section's description.
	DescriptionMax = 256
	// ShareLinkNameMax bounds a share link's name.
	ShareLinkNameMax = 50
)
