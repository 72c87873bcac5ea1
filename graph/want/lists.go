package want

import (
	"context"

	"quire/internal/catalog"
	"quire/internal/comments"
	"quire/internal/members"
	"quire/internal/reviews"
)

// The Wants of discussions, derived from the selection set of the
// connection being resolved (a commentList, replyList or reviews field).

// itemPrefixes are the two ways to a connection's items.
var itemPrefixes = [][]string{{"nodes"}, {"edges", "node"}}

// joinPath joins a prefix and the steps below it in a new slice.
func joinPath(prefix []string, steps ...string) []string {
	return append(append(make([]string, 0, len(prefix)+len(steps)), prefix...), steps...)
}

// commentWantAt is what the comments or replies reached through prefix
// show.
func commentWantAt(ctx context.Context, prefix []string) comments.Want {
	at := func(field string) bool { return selected(ctx, joinPath(prefix, field)...) }
	return comments.Want{
		Bodies:    at("body"),
		Reactions: at("reactions"),
		Repliers:  at("repliers"),
		Users:     at("postedBy") || at("resolvedBy"),
	}
}

func orWant(a, b comments.Want) comments.Want {
	return comments.Want{Bodies: a.Bodies || b.Bodies, Reactions: a.Reactions || b.Reactions,
		Repliers: a.Repliers || b.Repliers, Users: a.Users || b.Users}
}

// Comments is what the comment or reply connection being resolved
// shows of its items.
func Comments(ctx context.Context) comments.Want {
	var w comments.Want
	for _, p := range itemPrefixes {
		w = orWant(w, commentWantAt(ctx, p))
	}
	return w
}

// Reviews is what the review connection being resolved shows of its
// reviews.
func Reviews(ctx context.Context) reviews.Want {
	var w reviews.Want
	for _, p := range itemPrefixes {
		w.Users = w.Users || selected(ctx, joinPath(p, "reviewer")...) || selected(ctx, joinPath(p, "requestedBy")...)
		if selected(ctx, joinPath(p, "comment")...) {
			c := commentWantAt(ctx, joinPath(p, "comment"))
			if w.Comment != nil {
				c = orWant(c, *w.Comment)
			}
			w.Comment = &c
		}
	}
	return w
}

// Members is what the member connection being resolved shows of its
// members.
func Members(ctx context.Context) members.Want {
	var w members.Want
	for _, p := range itemPrefixes {
		w.Users = w.Users || selected(ctx, joinPath(p, "user")...)
	}
	return w
}

// TeamMembers is what the team membership connection being resolved
// shows of its members.
func TeamMembers(ctx context.Context) members.Want {
	var w members.Want
	for _, p := range itemPrefixes {
		w.Users = w.Users || selected(ctx, joinPath(p, "member", "user")...)
	}
	return w
}

// Space is what the space field being resolved shows of its space.
func Space(ctx context.Context) catalog.SpaceWant {
	return catalog.SpaceWant{Organization: selected(ctx, "organization")}
}
