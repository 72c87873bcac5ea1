package db

import (
	entgo "entgo.io/ent"

	"quire/ent"
)

// Content changes. The reader door keeps the pages it rendered of
// published sites (reader.PageCache) and must forget them when anything
// they show may have changed: a space's content or its current revision,
// a site, its sections, site spaces, share links or customization, an
// organization's name, a file, an OpenAPI specification, and whatever
// Quire adds to its model next. So every mutation made with ent's
// builders is announced as a content change, as access changes are (see
// Announce), except those of the entities below, which no published page
// shows and which are written often (a job's heartbeat, a rate-limit
// window, a comment). Announcements are made once per transaction and
// topic; a write made with hand-written SQL announces itself with
// Announce(ctx, client, Content).

// ContentChannel is the PostgreSQL notification channel of content
// changes.
const ContentChannel = "quire_content"

// quietEntities are the entities no published page shows, with why.
var quietEntities = map[string]string{
	ent.TypeJob:                   "background jobs: their state and heartbeats",
	ent.TypeRateLimitCounter:      "rate-limit windows, written by requests",
	ent.TypeSAMLRequest:           "pending SAML sign-ins",
	ent.TypeComment:               "discussions are shown to members only",
	ent.TypeCommentReply:          "idem",
	ent.TypeCommentReaction:       "idem",
	ent.TypeChangeRequest:         "change requests: their content reaches readers by a merge, which changes the space",
	ent.TypeChangeRequestReview:   "reviews of change requests, for members only",
	ent.TypeChangeRequestReviewer: "idem",
	ent.TypeConversation:          "conversations of the assistant, for members only",
	ent.TypeConversationCorpus:    "the corpus of conversation analysis",
	ent.TypeConversationIssue:     "issues found in conversations",
	ent.TypeIssuesCluster:         "clusters of those issues",
}

// QuietEntities names the entities whose mutations are not announced as
// content changes (for a test that checks them against the schema).
func QuietEntities() []string {
	out := make([]string, 0, len(quietEntities))
	for t := range quietEntities {
		out = append(out, t)
	}
	return out
}

// changesContent reports whether a mutation (which succeeded) may change
// what readers of published sites are shown.
func changesContent(m entgo.Mutation) bool {
	_, quiet := quietEntities[m.Type()]
	return !quiet
}
