package rest

// The request bodies and query parameters of discussions and reviews.

// DocumentBody is the body of a comment, a reply or a review's comment:
// Markdown or a JSON document.
type DocumentBody struct {
	Markdown *string                    `json:"markdown,omitempty" doc:"Markdown, at most 65,536 bytes."`
	Document *RawObject[map[string]any] `json:"document,omitempty" doc:"A JSON document."`
}

// TableCellBody names a cell of a table.
type TableCellBody struct {
	Record     string `json:"record" maxLength:"128" limit:"maxLength=comments.MaxTargetID"`
	Definition string `json:"definition" maxLength:"128" limit:"maxLength=comments.MaxTargetID"`
}

// PostCommentBody posts a comment.
type PostCommentBody struct {
	Body      DocumentBody   `json:"body"`
	Page      *string        `json:"page,omitempty" maxLength:"128" limit:"maxLength=comments.MaxTargetID" doc:"A page of the current content (the space's, or the change request's) the comment is about."`
	Node      *string        `json:"node,omitempty" maxLength:"128" limit:"maxLength=comments.MaxTargetID" doc:"The id of a node of the page's document."`
	TableCell *TableCellBody `json:"tableCell,omitempty"`
}

// PostReplyBody posts a reply.
type PostReplyBody struct {
	Body DocumentBody `json:"body"`
}

// UpdateCommentBody changes a comment (and, in a change request, a reply,
// whose resolved resolves the comment it replies to).
type UpdateCommentBody struct {
	Resolved         *bool         `json:"resolved,omitempty" doc:"true resolves the comment, false reopens it."`
	Body             *DocumentBody `json:"body,omitempty" doc:"Only the author may change it."`
	AddedReactions   []string      `json:"addedReactions,omitempty" maxItems:"20" limit:"maxItems=comments.MaxReactionsPerRequest" doc:"Emoji (characters, or code points such as 1f44d) the caller reacts with; removals apply after additions."`
	RemovedReactions []string      `json:"removedReactions,omitempty" maxItems:"20" limit:"maxItems=comments.MaxReactionsPerRequest" doc:"Emoji of the caller's reactions to take back; one never added changes nothing."`
}

// UpdateReplyBody changes a reply of a space's comment.
type UpdateReplyBody struct {
	Body             *DocumentBody `json:"body,omitempty" doc:"Only the author may change it."`
	AddedReactions   []string      `json:"addedReactions,omitempty" maxItems:"20" limit:"maxItems=comments.MaxReactionsPerRequest"`
	RemovedReactions []string      `json:"removedReactions,omitempty" maxItems:"20" limit:"maxItems=comments.MaxReactionsPerRequest"`
}

// FormatParams choose how bodies are shown.
type FormatParams struct {
	Format string "query:\"format\" enum:\"markdown,document\" doc:\"markdown (default): bodies as `{markdown}`; document: as `{document}`.\""
}

// CommentListParams page, filter and order a list of comments.
type CommentListParams struct {
	ListParams
	Order      string   `query:"order" enum:"asc,desc" doc:"By time posted: desc (default, newest first) or asc."`
	Format     string   "query:\"format\" enum:\"markdown,document\" doc:\"markdown (default): bodies as `{markdown}`; document: as `{document}`.\""
	Status     string   `query:"status" enum:"all,open,resolved" doc:"Only comments with this status (default all)."`
	TargetPage string   `query:"targetPage" doc:"Only comments about this page."`
	Authors    []string `query:"authors" doc:"Only comments posted by these users (at most 100)."`
}

// ReplyListParams page a list of replies.
type ReplyListParams struct {
	ListParams
	Format string "query:\"format\" enum:\"markdown,document\" doc:\"markdown (default): bodies as `{markdown}`; document: as `{document}`.\""
}

// ReviewListParams page and filter a list of reviews.
type ReviewListParams struct {
	ListParams
	Format   string "query:\"format\" enum:\"markdown,document\" doc:\"How the bodies of the reviews' comments are shown: markdown (default) or document.\""
	Outdated *bool  `query:"outdated" doc:"Only reviews that are (true) or are not (false) outdated."`
}

// SubmitReviewBody submits a review.
type SubmitReviewBody struct {
	Status  string        `json:"status" enum:"approved,changes-requested"`
	Comment *DocumentBody `json:"comment,omitempty" doc:"Posted with the review in the change request's discussion."`
}

// RequestReviewersBody asks users for a review.
type RequestReviewersBody struct {
	Users       []string                       `json:"users" maxItems:"50" limit:"maxItems=reviews.MaxUsers" doc:"Ids of the users asked, who need review rights on the space."`
	Subject     *string                        `json:"subject,omitempty" maxLength:"100" limit:"maxLength=content.MaxSubject" trim:"true" phrasing:"count" doc:"Changes the change request's subject at once."`
	Description Opt[RawObject[map[string]any]] `json:"description" nullable:"true" doc:"Changes its description at once (a JSON document; null removes it)."`
}
