package members

// TeamTitleMax bounds a team's title, in characters (at least 1). The REST
// bodies and the GraphQL inputs declare the same number; a test in rest/
// holds them to it.
const TeamTitleMax = 64
