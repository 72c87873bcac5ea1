package matrix_test

// gqlRules is the GraphQL half of the matrix: a row per root field and
// mutation, keyed "Query.field" and "Mutation.field", with the same levels
// as the REST rows (restRules); the input is the field's arguments.
var gqlRules = map[string]rule{
	"Query.node": readers.with(args("id", "spaceId")),
	"Query.nodes": readers.orNull().with(func(ids map[string]string) any {
		var list []string
		for _, k := range []string{"collectionId", "spaceId", "changeRequestId", "revisionId", "siteId",
			"siteSectionId", "siteSectionGroupId", "siteSpaceId", "commentId", "commentReplyId", "reviewId", "specId", "versionId"} {
			list = append(list, ids[k])
		}
		return map[string]any{"ids": list}
	}),
	"Query.viewer":           anyone,
	"Query.organizations":    anyone,
	"Query.contentTemplates": anyone,
	"Query.organization":     members.with(args("id", "organizationId")),
	"Query.collection":       readers.with(args("id", "collectionId")),
	"Query.space":            readers.with(args("id", "spaceId")),
	"Query.revision":         readers.with(args("id", "revisionId")),
	"Query.changeRequest":    readers.with(args("id", "changeRequestId")),
	"Query.site":             readers.with(args("id", "siteId")),
	"Query.spaceGitInfo":     readers.with(args("space", "spaceId")),

	"Mutation.createCollection": inOrg(creator).with(input(map[string]any{"title": "New collection"}, "organization", "organizationId")),
	"Mutation.updateCollection": needs(admin).with(args("id", "collectionId", "input", map[string]any{"title": "Guides"})),
	"Mutation.deleteCollection": needs(admin).spoils("collectionId").with(args("id", "collectionId")),
	"Mutation.moveCollection": needs(admin).spoils("collectionId").with(func(ids map[string]string) any {
		return map[string]any{"id": ids["collectionId"], "input": map[string]any{"position": map[string]any{
			"before": map[string]any{"type": "collection", "collection": ids["anchor"]}}}}
	}),
	"Mutation.transferCollection": needs(admin).spoils("collectionId").with(args("id", "collectionId", "organization", "sandbox")),
	"Mutation.createSpace":        inOrg(creator).with(input(map[string]any{"title": "New space"}, "organization", "organizationId")),
	"Mutation.updateSpace":        needs(editor).with(args("id", "spaceId", "input", map[string]any{"title": "Docs"})),
	"Mutation.deleteSpace":        needs(admin).spoils("spaceId").with(args("id", "spaceId")),
	"Mutation.restoreSpace":       needs(admin).spoils("spaceId").with(args("id", "trashed")),
	"Mutation.duplicateSpace":     needs(creator).with(args("id", "spaceId")),
	"Mutation.moveSpace": needs(admin).spoils("spaceId").with(func(ids map[string]string) any {
		return map[string]any{"id": ids["spaceId"], "input": map[string]any{"position": map[string]any{
			"before": map[string]any{"type": "space", "space": ids["space2"]}}}}
	}),
	"Mutation.transferSpace": needs(admin).spoils("spaceId").with(args("id", "spaceId", "organization", "sandbox")),

	"Mutation.importGitRepository": needs(editor).with(func(ids map[string]string) any {
		return map[string]any{"input": withSpace(gitImport, ids["spaceId"])}
	}),
	"Mutation.exportToGitRepository": needs(editor).with(func(ids map[string]string) any {
		return map[string]any{"input": withSpace(gitExport, ids["spaceId"])}
	}),
	"Mutation.deleteLegacyGitInstallation": needs(admin).spoils("spaceId").ofPart().with(args("space", "spaceId")),

	"Mutation.createChangeRequest": needs(editor).with(func(ids map[string]string) any {
		return map[string]any{"input": map[string]any{"space": ids["spaceId"], "subject": "New",
			"template": map[string]any{"id": "knowledge-base", "contentRefs": related(ids)}}}
	}),
	"Mutation.patchChangeRequest":  needs(editor).with(args("id", "changeRequestId", "input", map[string]any{"subject": "Draft"})),
	"Mutation.mergeChangeRequest":  needs(reviewer).spoils("changeRequestId").with(args("id", "changeRequestId")),
	"Mutation.updateChangeRequest": needs(editor).spoils("changeRequestId").with(args("id", "changeRequestId")),
	"Mutation.createPage":          needs(editor).with(input(map[string]any{"title": "New page"}, "changeRequest", "changeRequestId")),
	"Mutation.updatePage": needs(editor).
		with(input(map[string]any{"title": "Guide"}, "changeRequest", "changeRequestId", "page", "pageId")),
	"Mutation.movePage": needs(editor).spoils("changeRequestId").
		with(input(map[string]any{"parent": nil}, "changeRequest", "changeRequestId", "page", "page2")),
	"Mutation.deletePage":            needs(editor).spoils("changeRequestId").with(args("changeRequest", "changeRequestId", "page", "page2")),
	"Mutation.uploadFile":            needs(editor).with(input(map[string]any{"file": nil}, "changeRequest", "changeRequestId")),
	"Mutation.deleteFile":            needs(editor).spoils("changeRequestId").with(args("changeRequest", "changeRequestId", "file", "fileId")),
	"Mutation.setVariables":          needs(editor).with(args("changeRequest", "changeRequestId", "variables", map[string]any{"product": "Quire"})),
	"Mutation.createReusableContent": needs(editor).with(input(map[string]any{"title": "Note"}, "changeRequest", "changeRequestId")),
	"Mutation.updateReusableContent": needs(editor).
		with(input(map[string]any{"title": "Warning"}, "changeRequest", "changeRequestId", "reusableContent", "reusableContentId")),
	"Mutation.deleteReusableContent": needs(editor).spoils("changeRequestId").
		with(args("changeRequest", "changeRequestId", "reusableContent", "reusableContentId")),
	"Mutation.applyTemplate": needs(editor).with(func(ids map[string]string) any {
		return map[string]any{"input": map[string]any{"space": ids["spaceId"], "template": "knowledge-base",
			"contentRefs": related(ids)}}
	}),

	"Mutation.postComment":   needs(commenter).with(input(map[string]any{"body": map[string]any{"markdown": "A comment."}}, "space", "spaceId")),
	"Mutation.updateComment": needs(commenter).with(args("id", "commentId", "input", map[string]any{"resolved": false})),
	"Mutation.deleteComment": needs(admin).spoils("spaceId", "commentId").with(args("id", "commentId")),
	"Mutation.postCommentReply": needs(commenter).
		with(args("comment", "commentId", "body", map[string]any{"markdown": "A reply."})),
	"Mutation.updateCommentReply": needs(commenter).with(args("id", "commentReplyId", "input", noReaction)),
	"Mutation.deleteCommentReply": needs(admin).spoils("spaceId", "commentId").with(args("id", "commentReplyId")),
	"Mutation.submitChangeRequestReview": needs(reviewer).spoils("changeRequestId").
		with(args("changeRequest", "changeRequestId", "input", map[string]any{"status": "changes_requested"})),
	"Mutation.requestReviewersForChangeRequest": needs(editor).with(func(ids map[string]string) any {
		return map[string]any{"changeRequest": ids["changeRequestId"], "input": map[string]any{"users": []string{ids["reviewerId"]}}}
	}),
	"Mutation.removeRequestedReviewerFromChangeRequest": needs(editor).spoils("changeRequestId", "userId").
		with(args("changeRequest", "changeRequestId", "user", "userId")),

	"Mutation.createSite":    needs(creator).with(input(map[string]any{"title": "New site"}, "organization", "organizationId")),
	"Mutation.updateSite":    needs(creator).with(args("id", "siteId", "input", map[string]any{"title": "Handbook"})),
	"Mutation.deleteSite":    needs(creator).spoils("siteId").with(args("id", "siteId")),
	"Mutation.publishSite":   needs(creator).spoils("siteId").with(args("id", "siteId")),
	"Mutation.unpublishSite": needs(creator).spoils("siteId").with(args("id", "siteId")),

	"Mutation.addSiteSpace": needs(creator).spoils("siteId").with(func(ids map[string]string) any {
		return map[string]any{"site": ids["siteId"], "input": map[string]any{"space": ids["spare"]}}
	}),
	"Mutation.updateSiteSpace": needs(creator).with(args("site", "siteId", "id", "siteSpaceId", "input", map[string]any{"hidden": false})),
	"Mutation.deleteSiteSpace": needs(creator).spoils("siteId").with(args("site", "siteId", "id", "siteSpaceId")),
	"Mutation.addSiteSection": needs(creator).spoils("siteId").with(func(ids map[string]string) any {
		return map[string]any{"site": ids["siteId"], "input": map[string]any{"space": ids["spare"]}}
	}),
	"Mutation.updateSiteSection": needs(creator).
		with(args("site", "siteId", "id", "siteSectionId", "input", map[string]any{"title": "Reference"})),
	"Mutation.deleteSiteSection": needs(creator).spoils("siteId").with(args("site", "siteId", "id", "siteSectionId")),
	"Mutation.createSiteSectionGroup": needs(creator).spoils("siteId").
		with(args("site", "siteId", "input", map[string]any{"title": "New group"})),
	"Mutation.updateSiteSectionGroup": needs(creator).
		with(args("site", "siteId", "id", "siteSectionGroupId", "input", map[string]any{"title": "Group"})),
	"Mutation.deleteSiteSectionGroup": needs(creator).spoils("siteId").with(args("site", "siteId", "id", "siteSectionGroupId")),
	"Mutation.addSectionToGroup": needs(creator).spoils("siteId").
		with(args("site", "siteId", "group", "siteSectionGroupId", "section", "sectionD")),
	"Mutation.removeSectionFromGroup": needs(creator).spoils("siteId").ofPart().
		with(args("site", "siteId", "group", "siteSectionGroupId", "section", "siteSectionId")),
	"Mutation.sortSiteStructure": needs(creator).spoils("siteId").with(func(ids map[string]string) any {
		return map[string]any{"site": ids["siteId"], "input": map[string]any{
			"item":     map[string]any{"type": "site_section_group", "id": ids["siteSectionGroupId"]},
			"position": map[string]any{"before": map[string]any{"type": "site_section", "id": ids["sectionD"]}}}}
	}),

	"Mutation.updateSiteCustomization": needs(creator).spoils("siteId").
		with(args("site", "siteId", "settings", map[string]any{"styling": map[string]any{"theme": "muted"}})),
	"Mutation.overrideSiteSpaceCustomization": needs(creator).
		with(args("site", "siteId", "siteSpace", "siteSpaceId", "settings", map[string]any{"styling": map[string]any{"theme": "bold"}})),
	"Mutation.deleteSiteSpaceCustomization": needs(creator).spoils("siteId").ofPart().
		with(args("site", "siteId", "siteSpace", "siteSpaceId")),
	"Mutation.updateSiteAdaptiveSchema": needs(creator).with(args("site", "siteId", "jsonSchema", adaptiveSchema)),
	"Mutation.createSiteShareLink":      needs(creator).with(args("site", "siteId", "name", "New link")),
	"Mutation.updateSiteShareLink": needs(creator).
		with(args("site", "siteId", "id", "shareLinkId", "input", map[string]any{"name": "Link"})),
	"Mutation.deleteSiteShareLink":  needs(creator).spoils("siteId").with(args("site", "siteId", "id", "shareLinkId")),
	"Query.siteVisitorKey":          needs(creator).with(args("site", "siteId")),
	"Mutation.rotateSiteVisitorKey": needs(creator).with(args("site", "siteId")),

	"Query.conversation":               readers.with(args("id", "conversationId")),
	"Query.conversationIssue":          readers.with(args("id", "issueId")),
	"Query.conversationsIssuesCluster": readers.with(args("id", "clusterId")),
	"Mutation.ingestConversation": inOrg(admin).with(args("organization", "organizationId", "conversations", []any{map[string]any{
		"id": "fixture-1", "subject": "Export broken", "parts": []any{map[string]any{"role": "user", "body": "Exporting to PDF fails with a blank page."}}}})),
	"Mutation.updateConversationsIssuesCluster": needs(editor).with(args("id", "clusterId", "muted", false)),

	"Query.translation": readers.with(args("id", "translationId")),
	"Mutation.createTranslation": inOrg(creator).with(func(ids map[string]string) any {
		return map[string]any{"input": map[string]any{"organization": ids["organizationId"],
			"source": map[string]any{"space": ids["spaceId"], "language": "en"}, "language": "de"}}
	}),
	"Mutation.updateTranslation": needs(creator).with(args("id", "translationId", "instructions", emptyDoc)),
	"Mutation.deleteTranslation": needs(creator).spoils("translationId").with(args("id", "translationId")),
	"Mutation.runTranslation":    needs(creator).with(args("id", "translationId")),

	"Query.openAPISpec": readers.with(args("organization", "organizationId", "slug", "specSlug")),
	"Mutation.createOpenAPISpec": needs(creator).with(func(ids map[string]string) any {
		in := newSpec(ids).(map[string]any)
		in["organization"] = ids["organizationId"]
		return map[string]any{"input": in}
	}),
	"Mutation.createOrUpdateOpenAPISpec": needs(creator).with(input(map[string]any{"source": map[string]any{"text": fixtureSpec}},
		"organization", "organizationId", "slug", "specSlug")),
	"Mutation.updateOpenAPISpec": needs(creator).with(args("id", "specId", "input", map[string]any{"visibility": "private"})),
	"Mutation.deleteOpenAPISpec": needs(creator).spoils("specId").with(args("id", "specId")),
}

// args builds arguments from pairs: a name and either the fixture key of
// an id (a string) or a value.
func args(pairs ...any) func(ids map[string]string) any {
	return func(ids map[string]string) any {
		out := map[string]any{}
		for i := 0; i+1 < len(pairs); i += 2 {
			name := pairs[i].(string)
			if key, ok := pairs[i+1].(string); ok {
				if id, ok := ids[key]; ok {
					out[name] = id
					continue
				}
			}
			out[name] = pairs[i+1]
		}
		return out
	}
}

// input is the single argument input: the given fields, and ids by pairs
// of a field name and a fixture key.
func input(fields map[string]any, pairs ...string) func(ids map[string]string) any {
	return func(ids map[string]string) any {
		in := map[string]any{}
		for k, v := range fields {
			in[k] = v
		}
		for i := 0; i+1 < len(pairs); i += 2 {
			in[pairs[i]] = ids[pairs[i+1]]
		}
		return map[string]any{"input": in}
	}
}

// nestedRule is a field below the roots that needs more than seeing its
// object: the walk selects it only for callers whose role in their own
// organization is at least min, and a probe asks it of A's object as every
// caller who sees that object.
type nestedRule struct {
	min level
	// code is the error at the field for a caller below min.
	code string
	// probe asks the field of the object whose id is the variable id,
	// A's fixture id named by arg.
	probe, arg string
	// sees is the least level that sees the object.
	sees level
}

var nestedRules = map[string]nestedRule{
	"Site.shareLinks": {min: creator, code: "FORBIDDEN", sees: reader, arg: "siteId",
		probe: `query($id: ID!) { site(id: $id) { shareLinks { totalCount nodes { id name } } } }`},
	"Organization.members": {min: reader, code: "FORBIDDEN", sees: member, arg: "organizationId",
		probe: `query($id: ID!) { organization(id: $id) { members { totalCount nodes { id } } } }`},
	"Organization.sites": {min: reader, code: "NOT_FOUND", sees: member, arg: "organizationId",
		probe: `query($id: ID!) { organization(id: $id) { sites { totalCount nodes { id } } } }`},
	"Organization.openAPISpecs": {min: reader, code: "NOT_FOUND", sees: member, arg: "organizationId",
		probe: `query($id: ID!) { organization(id: $id) { openAPISpecs { totalCount nodes { id slug } } } }`},
}
