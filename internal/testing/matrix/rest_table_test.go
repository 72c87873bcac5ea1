package matrix_test

import "fmt"

// restRules is the REST half of the matrix: a row per route of the route
// table, keyed "METHOD /pattern" (below /v1). Levels are those of the
// "Authentication and permissions" of docs/api.md: reading needs read, content
// edits edit, merging review, creating in an organization create, and
// changing collections and spaces' settings, deleting, moving and
// transferring admin; reading sites needs a role and changing them create.
var restRules = map[string]rule{
	"GET /openapi.json": public,
	"GET /user":         anyone,
	// Users are seen by themselves and by members (with a role, not
	// guests) of an organization they share.
	"GET /users/{userId}": readers,
	"GET /orgs":           anyone,

	"GET /orgs/{organizationId}":             members,
	"GET /orgs/{organizationId}/collections": members,
	"POST /orgs/{organizationId}/collections": inOrg(creator).status(201).
		with(fixed(map[string]any{"title": "New collection"})),
	"GET /orgs/{organizationId}/spaces": members,
	"POST /orgs/{organizationId}/spaces": inOrg(creator).status(201).
		with(fixed(map[string]any{"title": "New space"})),
	"GET /orgs/{organizationId}/change-requests": members,
	// Searches find the fixture's pages ("Guide", "Intro": "Back to the
	// guide"), so that results are checked for what callers may not see.
	"GET /orgs/{organizationId}/search": members.asking("query=guide"),

	"GET /collections/{collectionId}":        readers,
	"PATCH /collections/{collectionId}":      needs(admin).with(fixed(map[string]any{"title": "Guides"})),
	"DELETE /collections/{collectionId}":     needs(admin).status(205).spoils(),
	"GET /collections/{collectionId}/spaces": readers,
	"POST /collections/{collectionId}/move":  needs(admin).spoils().with(beforeCollection),
	"POST /collections/{collectionId}/transfer": needs(admin).spoils().
		with(func(ids map[string]string) any { return map[string]any{"organization": ids["sandbox"]} }),

	"GET /spaces/{spaceId}":            readers,
	"PATCH /spaces/{spaceId}":          needs(editor).with(fixed(map[string]any{"title": "Docs"})),
	"DELETE /spaces/{spaceId}":         needs(admin).status(205).spoils(),
	"POST /spaces/{spaceId}/duplicate": needs(creator).status(201),
	"POST /spaces/{spaceId}/restore":   needs(admin).spoils().on("spaceId", "trashed"),
	"POST /spaces/{spaceId}/move":      needs(admin).spoils().with(beforeSpace),
	"POST /spaces/{spaceId}/transfer": needs(admin).spoils().
		with(func(ids map[string]string) any { return map[string]any{"organization": ids["sandbox"]} }),

	"GET /spaces/{spaceId}/content":                          readers,
	"GET /spaces/{spaceId}/content/pages":                    readers,
	"GET /spaces/{spaceId}/content/files":                    readers,
	"GET /spaces/{spaceId}/content/files/{fileId}":           readers,
	"GET /spaces/{spaceId}/content/files/{fileId}/backlinks": readers,
	"GET /spaces/{spaceId}/content/page/{pageId}":            readers,
	"GET /spaces/{spaceId}/content/page/{pageId}/links":      readers,
	"GET /spaces/{spaceId}/content/page/{pageId}/backlinks":  readers,
	"GET /spaces/{spaceId}/links":                            readers,
	// Computing a source reads like a page: from the organization's
	// specifications (none named petstore here: a hint).
	"POST /spaces/{spaceId}/content/computed/document": readers.with(fixed(map[string]any{"seed": "s",
		"source": map[string]any{"type": "builtin:openapi", "dependencies": map[string]any{"spec": map[string]any{"ref": map[string]any{"kind": "openapi", "spec": "petstore"}}}}})),
	// Reusable contents read like pages.
	"GET /spaces/{spaceId}/content/reusable-contents/{reusableContentId}":                                   readers,
	"GET /spaces/{spaceId}/change-requests/{changeRequestId}/content/reusable-contents/{reusableContentId}": readers,
	"GET /spaces/{spaceId}/revisions/{revisionId}/reusable-contents/{reusableContentId}":                    readers,
	"GET /spaces/{spaceId}/revisions/{revisionId}/reusable-contents/{reusableContentId}/document":           readers,
	"GET /spaces/{spaceId}/search": readers.asking("query=guide"),
	"POST /spaces/{spaceId}/content/template": needs(editor).status(201).with(func(ids map[string]string) any {
		return map[string]any{"id": "knowledge-base", "params": map[string]any{"contentRefs": related(ids)}}
	}),
	"POST /spaces/{spaceId}/git/import":                needs(editor).status(204).with(fixed(gitImport)),
	"POST /spaces/{spaceId}/git/export":                needs(editor).status(204).with(fixed(gitExport)),
	"GET /spaces/{spaceId}/git/info":                   readers,
	"DELETE /spaces/{spaceId}/git/legacy-installation": needs(admin).status(205).spoils().ofPart(),

	"GET /spaces/{spaceId}/change-requests": readers,
	"POST /spaces/{spaceId}/change-requests": needs(editor).status(201).with(func(ids map[string]string) any {
		return map[string]any{"subject": "New", "template": map[string]any{"id": "knowledge-base",
			"params": map[string]any{"contentRefs": related(ids)}}}
	}),
	"GET /spaces/{spaceId}/change-requests/{changeRequestId}": readers,
	"PATCH /spaces/{spaceId}/change-requests/{changeRequestId}": needs(editor).
		with(fixed(map[string]any{"subject": "Draft"})),
	"POST /spaces/{spaceId}/change-requests/{changeRequestId}/merge":  needs(reviewer).spoils(),
	"POST /spaces/{spaceId}/change-requests/{changeRequestId}/update": needs(editor).spoils(),
	"GET /spaces/{spaceId}/change-requests/{changeRequestId}/pdf":     readers,

	"GET /spaces/{spaceId}/change-requests/{changeRequestId}/content":                          readers,
	"GET /spaces/{spaceId}/change-requests/{changeRequestId}/content/pages":                    readers,
	"GET /spaces/{spaceId}/change-requests/{changeRequestId}/content/files":                    readers,
	"GET /spaces/{spaceId}/change-requests/{changeRequestId}/content/files/{fileId}":           readers,
	"GET /spaces/{spaceId}/change-requests/{changeRequestId}/content/files/{fileId}/backlinks": readers,
	"GET /spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}":            readers,
	"GET /spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/links":      readers,
	"GET /spaces/{spaceId}/change-requests/{changeRequestId}/links":                            readers,
	"GET /spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/backlinks":  readers,

	// Discussions: reading needs read; posting, replying, reacting and
	// resolving comment; deleting what another posted admin.
	"GET /spaces/{spaceId}/comments":                                             readers,
	"POST /spaces/{spaceId}/comments":                                            needs(commenter).with(fixed(commentBody)),
	"GET /spaces/{spaceId}/comments/{commentId}":                                 readers,
	"PUT /spaces/{spaceId}/comments/{commentId}":                                 needs(commenter).with(fixed(map[string]any{"resolved": false})),
	"DELETE /spaces/{spaceId}/comments/{commentId}":                              needs(admin).status(205).spoils(),
	"GET /spaces/{spaceId}/comments/{commentId}/replies":                         readers,
	"POST /spaces/{spaceId}/comments/{commentId}/replies":                        needs(commenter).with(fixed(commentBody)),
	"GET /spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}":        readers,
	"PUT /spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}":        needs(commenter).with(fixed(noReaction)),
	"DELETE /spaces/{spaceId}/comments/{commentId}/replies/{commentReplyId}":     needs(admin).status(205).spoils(),
	"GET /spaces/{spaceId}/commenters":                                           readers,
	"GET " + crComments:                                                          readers,
	"POST " + crComments:                                                         needs(commenter).with(fixed(commentBody)),
	"GET " + crComments + "/{commentId}":                                         readers.on("commentId", "crCommentId"),
	"PUT " + crComments + "/{commentId}":                                         needs(commenter).on("commentId", "crCommentId").with(fixed(map[string]any{"resolved": false})),
	"DELETE " + crComments + "/{commentId}":                                      needs(admin).status(205).spoils().on("commentId", "crCommentId"),
	"GET " + crComments + "/{commentId}/replies":                                 readers.on("commentId", "crCommentId"),
	"POST " + crComments + "/{commentId}/replies":                                needs(commenter).on("commentId", "crCommentId").with(fixed(commentBody)),
	"GET " + crComments + "/{commentId}/replies/{commentReplyId}":                readers.on("commentId", "crCommentId").on("commentReplyId", "crReplyId"),
	"PUT " + crComments + "/{commentId}/replies/{commentReplyId}":                needs(commenter).on("commentId", "crCommentId").on("commentReplyId", "crReplyId").with(fixed(noReaction)),
	"DELETE " + crComments + "/{commentId}/replies/{commentReplyId}":             needs(admin).status(205).spoils().on("commentId", "crCommentId").on("commentReplyId", "crReplyId"),
	"GET /spaces/{spaceId}/change-requests/{changeRequestId}/commenters":         readers,
	"GET /spaces/{spaceId}/change-requests/{changeRequestId}/reviews":            readers,
	"GET /spaces/{spaceId}/change-requests/{changeRequestId}/reviews/{reviewId}": readers,
	// Reviewing needs review rights (the fixture's admin reviews a change
	// request it created: changes-requested, as it may not approve it);
	// asking for reviews and withdrawing a request edit.
	"POST /spaces/{spaceId}/change-requests/{changeRequestId}/reviews": needs(reviewer).status(201).spoils().
		with(fixed(map[string]any{"status": "changes-requested"})),
	"GET /spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers": readers,
	"POST /spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers": needs(editor).
		with(func(ids map[string]string) any { return map[string]any{"users": []string{ids["reviewerId"]}} }),
	"DELETE /spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers/{userId}": needs(editor).status(205).spoils(),

	"GET /orgs/{organizationId}/sites": readers,
	"POST /orgs/{organizationId}/sites": needs(creator).status(201).
		with(fixed(map[string]any{"title": "New site"})),
	site:                              readers,
	"PATCH " + sitePath:               needs(creator).with(fixed(map[string]any{"title": "Handbook"})),
	"DELETE " + sitePath:              needs(creator).status(205).spoils(),
	"POST " + sitePath + "/publish":   needs(creator).spoils(),
	"POST " + sitePath + "/unpublish": needs(creator).spoils(),
	site + "/published":               readers,
	site + "/structure":               readers,
	"PATCH " + sitePath + "/structure/sort": needs(creator).spoils().with(func(ids map[string]string) any {
		return map[string]any{"item": map[string]any{"type": "site-section-group", "id": ids["siteSectionGroupId"]},
			"position": map[string]any{"before": map[string]any{"type": "site-section", "id": ids["sectionD"]}}}
	}),

	site + "/share-links":                                  needs(creator),
	"POST " + sitePath + "/share-links":                    needs(creator).status(201).with(fixed(map[string]any{"name": "New link"})),
	"PATCH " + sitePath + "/share-links/{shareLinkId}":     needs(creator).with(fixed(map[string]any{"name": "Link"})),
	"DELETE " + sitePath + "/share-links/{shareLinkId}":    needs(creator).status(205).spoils(),
	site + "/site-spaces":                                  readers,
	"POST " + sitePath + "/site-spaces":                    needs(creator).status(201).spoils().with(spare),
	"PATCH " + sitePath + "/site-spaces/{siteSpaceId}":     needs(creator).with(fixed(map[string]any{"hidden": false})),
	"DELETE " + sitePath + "/site-spaces/{siteSpaceId}":    needs(creator).status(205).spoils(),
	"POST " + sitePath + "/site-spaces/{siteSpaceId}/move": needs(creator).spoils().with(fixed(map[string]any{})),
	site + "/sections":                                     readers,
	"POST " + sitePath + "/sections":                       needs(creator).status(201).spoils().with(spare),
	"PATCH " + sitePath + "/sections/{siteSectionId}":      needs(creator).with(fixed(map[string]any{"title": "Reference"})),
	"DELETE " + sitePath + "/sections/{siteSectionId}":     needs(creator).status(205).spoils(),
	"POST " + sitePath + "/sections/{siteSectionId}/move":  needs(creator).spoils().with(fixed(map[string]any{})),
	site + "/section-groups":                               readers,
	"POST " + sitePath + "/section-groups":                 needs(creator).status(201).spoils().with(fixed(map[string]any{"title": "New group"})),
	"PATCH " + sitePath + "/section-groups/{siteSectionGroupId}": needs(creator).
		with(fixed(map[string]any{"title": "Group"})),
	"DELETE " + sitePath + "/section-groups/{siteSectionGroupId}": needs(creator).status(205).spoils(),
	"POST " + sitePath + "/section-groups/{siteSectionGroupId}/sections": needs(creator).status(201).spoils().
		with(func(ids map[string]string) any { return map[string]any{"sectionId": ids["sectionD"]} }),
	"DELETE " + sitePath + "/section-groups/{siteSectionGroupId}/sections/{siteSectionId}": needs(creator).status(205).spoils().ofPart(),
	"POST " + sitePath + "/section-groups/{siteSectionGroupId}/move":                       needs(creator).spoils().with(fixed(map[string]any{})),

	site + "/site-spaces/{siteSpaceId}/customization": readers,
	"PATCH " + sitePath + "/site-spaces/{siteSpaceId}/customization": needs(creator).
		with(fixed(map[string]any{"styling": map[string]any{"theme": "bold"}})),
	"DELETE " + sitePath + "/site-spaces/{siteSpaceId}/customization": needs(creator).status(205).spoils().ofPart(),
	site + "/customization": readers,
	"PUT " + sitePath + "/customization": needs(creator).spoils().
		with(fixed(map[string]any{"styling": map[string]any{"theme": "muted"}})),
	site + "/adaptive-schema": readers,
	"PUT " + sitePath + "/adaptive-schema": needs(creator).
		with(fixed(map[string]any{"jsonSchema": adaptiveSchema})),
	site + "/adaptive-schema/template-conditions": readers,
	site + "/visitor-key":                         needs(creator),
	"POST " + sitePath + "/visitor-key":           needs(creator),

	// Conversations: reading needs a role (a guest's lists are empty),
	// ingesting admin, muting edit.
	"POST /orgs/{organizationId}/conversations": inOrg(admin).status(204).with(fixed(map[string]any{"id": "fixture-1", "subject": "Export broken",
		"parts": []any{map[string]any{"type": "message", "role": "user", "body": "Exporting to PDF fails with a blank page."}}})),
	"GET /orgs/{organizationId}/conversations":                        members,
	"GET /orgs/{organizationId}/conversations/{conversationId}":       readers,
	"GET /orgs/{organizationId}/conversations-issues":                 members,
	"GET /orgs/{organizationId}/conversations-issues/{issueId}":       readers,
	"GET /orgs/{organizationId}/conversations-clusters":               members,
	"GET /orgs/{organizationId}/conversations-clusters/{clusterId}":   readers,
	"PATCH /orgs/{organizationId}/conversations-clusters/{clusterId}": needs(editor).with(fixed(map[string]any{"muted": false})),

	// Translations: seen by who may read the source space; changed by the
	// create role.
	"GET /orgs/{organizationId}/translations": members,
	"POST /orgs/{organizationId}/translations": inOrg(creator).status(201).with(func(ids map[string]string) any {
		return map[string]any{"source": map[string]any{"space": ids["spaceId"], "language": "en"}, "language": "de"}
	}),
	"GET /orgs/{organizationId}/translations/{translationId}":      readers,
	"PUT /orgs/{organizationId}/translations/{translationId}":      needs(creator).with(fixed(map[string]any{"instructions": emptyDoc})),
	"DELETE /orgs/{organizationId}/translations/{translationId}":   needs(creator).status(205).spoils(),
	"POST /orgs/{organizationId}/translations/{translationId}/run": needs(creator).status(204),

	"GET /orgs/{organizationId}/openapi":   readers,
	"POST /orgs/{organizationId}/openapi":  needs(creator).status(201).with(newSpec),
	spec:                                   readers,
	"PUT " + specPath:                      needs(creator).with(fixed(map[string]any{"source": map[string]any{"text": fixtureSpec}})),
	"PATCH " + specPath:                    needs(creator).with(fixed(map[string]any{"visibility": "private"})),
	"DELETE " + specPath:                   needs(creator).status(205).spoils(),
	spec + "/versions":                     readers,
	spec + "/versions/latest":              readers,
	spec + "/versions/latest/content":      readers,
	spec + "/versions/{versionId}":         readers,
	spec + "/versions/{versionId}/content": readers,
}

// emptyDoc is a document with nothing in it.
var emptyDoc = map[string]any{"object": "document", "data": map[string]any{}, "nodes": []any{}}

// The comments of the fixture's change request.
const crComments = "/spaces/{spaceId}/change-requests/{changeRequestId}/comments"

// commentBody is the body of a comment or reply the matrix posts; a
// reaction the callers never made, taken back, changes nothing.
var (
	commentBody = map[string]any{"body": map[string]any{"markdown": "A comment."}}
	noReaction  = map[string]any{"removedReactions": []string{"👍"}}
)

// The site routes' common prefix, and as a GET key.
const (
	sitePath = "/orgs/{organizationId}/sites/{siteId}"
	site     = "GET " + sitePath
)

// The OpenAPI specification routes' common prefix, and as a GET key.
const (
	specPath = "/orgs/{organizationId}/openapi/{specSlug}"
	spec     = "GET " + specPath
)

// fixtureSpec is the text of the fixture's OpenAPI specifications.
const fixtureSpec = "openapi: 3.1.0\ninfo: {title: Reference, version: \"1\"}\npaths: {}\n"

// newSpec creates a specification of a slug no other request used, since
// slugs are unique in an organization.
func newSpec(map[string]string) any {
	specCount++
	return map[string]any{"slug": fmt.Sprintf("new-spec-%d", specCount), "source": map[string]any{"text": fixtureSpec}}
}

var specCount int

func beforeCollection(ids map[string]string) any {
	return map[string]any{"position": map[string]any{"before": map[string]any{"type": "collection", "collection": ids["anchor"]}}}
}

func beforeSpace(ids map[string]string) any {
	return map[string]any{"position": map[string]any{"before": map[string]any{"type": "space", "space": ids["space2"]}}}
}

func spare(ids map[string]string) any { return map[string]any{"spaceId": ids["spare"]} }

// related is a template param naming a space and a user of the fixture,
// so that every check of ids in requests covers template params too.
func related(ids map[string]string) map[string]any {
	return map[string]any{"related": map[string]any{"kind": "space", "space": ids["space2"]},
		"support": map[string]any{"kind": "user", "user": ids["adminId"]}}
}
