// Discussions and reviews: the space comment operations (listCommentsInSpace,
// postCommentInSpace, getCommentInSpace, updateCommentInSpace with a body,
// reactions and resolved, deleteCommentInSpace, the reply operations and
// listCommentersInSpace), the same on a change request (...InChangeRequest),
// and reviews: requestReviewersForChangeRequest,
// getRequestedReviewersByChangeRequestId, the requestedReviewer filter,
// submitChangeRequestReview, getReviewsByChangeRequestId,
// getChangeRequestReviewById, removeRequestedReviewerFromChangeRequest, and
// a merge rule that requires the reviewer's approval.
import { eq, has, lacks, ok } from '../lib/assert.mjs';

const md = (markdown) => ({ body: { markdown } });

export default function discussionsArea(t) {
	let space; // the space discussed
	let comment; // its first comment
	let reply; // a reply to it
	let cr; // a change request
	let crComment; // a comment of the change request
	let crReply;
	let review; // the reviewer's review

	t.step('postCommentInSpace posts a comment, counted by the space', async ({ admin, call, orgId }) => {
		({ data: space } = await call('createSpace', () => admin.orgs.createSpace(orgId, { title: 'Interop discussions' }), { status: 201 }));
		({ data: comment } = await call('postCommentInSpace', () => admin.spaces.postCommentInSpace(space.id, md('Is this **clear**?')), {
			status: 200,
		}));
		eq(comment.object, 'comment', 'object');
		eq(comment.status, 'open', 'status');
		eq(comment.body.markdown, 'Is this **clear**?\n', 'body');
		eq(comment.target.space, space.id, 'target.space');
		eq(comment.permissions.edit, true, 'permissions.edit');
		const { data: sp } = await call('getSpaceById', () => admin.spaces.getSpaceById(space.id), { status: 200 });
		eq(sp.comments, 1, 'space comments');
	});

	t.step('getCommentInSpace and listCommentsInSpace, as Markdown and as a document', async ({ reader, call, fails, need }) => {
		need(comment, 'the comment');
		const { data: got } = await call('getCommentInSpace', () => reader.spaces.getCommentInSpace(space.id, comment.id, { format: 'document' }), {
			status: 200,
		});
		eq(got.body.document?.object, 'document', 'body.document');
		eq(got.permissions.edit, false, "the reader's permissions.edit");
		const { data: list } = await call('listCommentsInSpace', () => reader.spaces.listCommentsInSpace(space.id, { status: 'open', order: 'asc' }), {
			status: 200,
		});
		has(list.items, comment.id, 'open comments');
		eq(list.count, 1, 'count');
		await fails('postCommentInSpace', () => reader.spaces.postCommentInSpace(space.id, md('me too')), 403);
		await fails('getCommentInSpace', () => reader.spaces.getCommentInSpace(space.id, 'K0000000000000000000'), 404);
	});

	t.step('updateCommentInSpace: reactions, resolving, editing', async ({ admin, call, fails, need, reader }) => {
		need(comment, 'the comment');
		const { data: reacted } = await call(
			'updateCommentInSpace',
			() => admin.spaces.updateCommentInSpace(space.id, comment.id, { addedReactions: ['👍', '🎉'], removedReactions: ['🎉'] }),
			{ status: 200 },
		);
		eq(reacted.reactions.length, 1, 'reactions');
		eq(reacted.reactions[0].emoji, '👍', 'emoji');
		eq(reacted.reactions[0].count, 1, 'count');
		const { data: resolved } = await call('updateCommentInSpace', () => admin.spaces.updateCommentInSpace(space.id, comment.id, { resolved: true }), {
			status: 200,
		});
		eq(resolved.status, 'resolved', 'status');
		ok(resolved.resolvedAt, 'resolvedAt');
		const { data: edited } = await call(
			'updateCommentInSpace',
			() => admin.spaces.updateCommentInSpace(space.id, comment.id, { resolved: false, body: { markdown: 'Is this clear?' } }),
			{ status: 200 },
		);
		eq(edited.status, 'open', 'status after reopening');
		eq(edited.resolvedAt, undefined, 'resolvedAt after reopening');
		ok(edited.editedAt, 'editedAt');
		await fails('updateCommentInSpace', () => reader.spaces.updateCommentInSpace(space.id, comment.id, { resolved: true }), 403);
		await fails('updateCommentInSpace', () => admin.spaces.updateCommentInSpace(space.id, comment.id, { addedReactions: ['not an emoji'] }), 400);
	});

	t.step('replies to a space comment', async ({ admin, reader, call, need }) => {
		need(comment, 'the comment');
		({ data: reply } = await call('postCommentReplyInSpace', () => admin.spaces.postCommentReplyInSpace(space.id, comment.id, md('Yes.')), {
			status: 200,
		}));
		eq(reply.object, 'comment-reply', 'object');
		const { data: list } = await call('listCommentRepliesInSpace', () => reader.spaces.listCommentRepliesInSpace(space.id, comment.id), {
			status: 200,
		});
		has(list.items, reply.id, 'replies');
		const { data: got } = await call('getCommentReplyInSpace', () => reader.spaces.getCommentReplyInSpace(space.id, comment.id, reply.id), {
			status: 200,
		});
		eq(got.body.markdown, 'Yes.\n', 'reply body');
		const { data: upd } = await call(
			'updateCommentReplyInSpace',
			() => admin.spaces.updateCommentReplyInSpace(space.id, comment.id, reply.id, { body: { markdown: 'Yes!' }, addedReactions: ['👀'] }),
			{ status: 200 },
		);
		eq(upd.reactions[0].emoji, '👀', 'reply reaction');
		const { data: c } = await call('getCommentInSpace', () => reader.spaces.getCommentInSpace(space.id, comment.id), { status: 200 });
		eq(c.replies, 1, 'replies');
		eq(c.repliers[0].user.id, upd.postedBy.id, 'replier');
		const { data: commenters } = await call('listCommentersInSpace', () => reader.spaces.listCommentersInSpace(space.id), { status: 200 });
		eq(commenters.items[0].object, 'member', 'commenter object');
		eq(commenters.items[0].role, 'admin', 'commenter role');
	});

	t.step('deleting a reply and a comment: 205, then 204', async ({ admin, call, fails, need, reader }) => {
		need(reply, 'the reply');
		await call('deleteCommentReplyInSpace', () => admin.spaces.deleteCommentReplyInSpace(space.id, comment.id, reply.id), { status: 205 });
		await call('deleteCommentReplyInSpace', () => admin.spaces.deleteCommentReplyInSpace(space.id, comment.id, reply.id), { status: 204 });
		await fails('deleteCommentInSpace', () => reader.spaces.deleteCommentInSpace(space.id, comment.id), 403);
		await call('deleteCommentInSpace', () => admin.spaces.deleteCommentInSpace(space.id, comment.id), { status: 205 });
		await call('deleteCommentInSpace', () => admin.spaces.deleteCommentInSpace(space.id, comment.id), { status: 204 });
		const { data: list } = await call('listCommentsInSpace', () => admin.spaces.listCommentsInSpace(space.id), { status: 200 });
		lacks(list.items, comment.id, 'comments after the delete');
	});

	t.step('a change request discussion', async ({ admin, reader, call, need }) => {
		need(space, 'the space');
		({ data: cr } = await call('createChangeRequest', () => admin.spaces.createChangeRequest(space.id, { subject: 'Reviewed change' }), {
			status: 201,
		}));
		({ data: crComment } = await call(
			'postCommentInChangeRequest',
			() => admin.spaces.postCommentInChangeRequest(space.id, cr.id, md('Please check the wording.')),
			{ status: 200 },
		));
		eq(crComment.target.changeRequest, cr.id, 'target.changeRequest');
		const { data: list } = await call('listCommentsInChangeRequest', () => reader.spaces.listCommentsInChangeRequest(space.id, cr.id), {
			status: 200,
		});
		has(list.items, crComment.id, 'change request comments');
		await call('getCommentInChangeRequest', () => reader.spaces.getCommentInChangeRequest(space.id, cr.id, crComment.id), { status: 200 });
		({ data: crReply } = await call(
			'postCommentReplyInChangeRequest',
			() => admin.spaces.postCommentReplyInChangeRequest(space.id, cr.id, crComment.id, md('Done.'), { format: 'document' }),
			{ status: 200 },
		));
		eq(crReply.body.document?.object, 'document', 'reply as a document');
		const { data: replies } = await call(
			'listCommentRepliesInChangeRequest',
			() => reader.spaces.listCommentRepliesInChangeRequest(space.id, cr.id, crComment.id),
			{ status: 200 },
		);
		has(replies.items, crReply.id, 'change request replies');
		await call('getCommentReplyInChangeRequest', () => reader.spaces.getCommentReplyInChangeRequest(space.id, cr.id, crComment.id, crReply.id), {
			status: 200,
		});
		// A change request's reply update may resolve the comment.
		await call(
			'updateCommentReplyInChangeRequest',
			() => admin.spaces.updateCommentReplyInChangeRequest(space.id, cr.id, crComment.id, crReply.id, { resolved: true }),
			{ status: 200 },
		);
		const { data: after } = await call('getChangeRequestById', () => reader.spaces.getChangeRequestById(space.id, cr.id), { status: 200 });
		eq(after.comments, 0, 'open comments after resolving');
		await call(
			'updateCommentInChangeRequest',
			() => admin.spaces.updateCommentInChangeRequest(space.id, cr.id, crComment.id, { resolved: false }),
			{ status: 200 },
		);
		const { data: commenters } = await call('listCommentersInChangeRequest', () => reader.spaces.listCommentersInChangeRequest(space.id, cr.id), {
			status: 200,
		});
		eq(commenters.count, 1, 'commenters');
		await call('deleteCommentReplyInChangeRequest', () => admin.spaces.deleteCommentReplyInChangeRequest(space.id, cr.id, crComment.id, crReply.id), {
			status: 205,
		});
	});

	t.step('requestReviewersForChangeRequest and the requestedReviewer filter', async ({ admin, call, fails, need, orgId, readerId, reviewerId, userId }) => {
		need(cr, 'the change request');
		await fails('requestReviewersForChangeRequest', () => admin.spaces.requestReviewersForChangeRequest(space.id, cr.id, { users: [readerId] }), 400);
		await fails('requestReviewersForChangeRequest', () => admin.spaces.requestReviewersForChangeRequest(space.id, cr.id, { users: [userId] }), 400);
		const { data } = await call(
			'requestReviewersForChangeRequest',
			() => admin.spaces.requestReviewersForChangeRequest(space.id, cr.id, { users: [reviewerId], subject: 'Reviewed change, ready' }),
			{ status: 200 },
		);
		eq(data.users[0].user.id, reviewerId, 'requested user');
		eq(data.users[0].kind, 'user', 'kind');
		const { data: list } = await call('getRequestedReviewersByChangeRequestId', () => admin.spaces.getRequestedReviewersByChangeRequestId(space.id, cr.id), {
			status: 200,
		});
		eq(list.items.length, 1, 'requested reviewers');
		const { data: mine } = await call(
			'listChangeRequestsForSpace',
			() => admin.spaces.listChangeRequestsForSpace(space.id, { status: 'draft', requestedReviewer: reviewerId }),
			{ status: 200 },
		);
		has(mine.items, cr.id, 'space list filtered by requestedReviewer');
		const { data: org } = await call(
			'listChangeRequestsForOrganization',
			() => admin.orgs.listChangeRequestsForOrganization(orgId, { status: 'draft', requestedReviewer: readerId }),
			{ status: 200 },
		);
		eq(org.items.length, 0, 'organization list for someone not asked');
	});

	t.step('submitChangeRequestReview, getReviewsByChangeRequestId, getChangeRequestReviewById', async ({ admin, reviewer, reader, call, fails, need, reviewerId }) => {
		need(cr, 'the change request');
		await fails('submitChangeRequestReview', () => reader.spaces.submitChangeRequestReview(space.id, cr.id, { status: 'approved' }), 403);
		await fails('submitChangeRequestReview', () => admin.spaces.submitChangeRequestReview(space.id, cr.id, { status: 'approved' }), 403);
		const { data, headers } = await call(
			'submitChangeRequestReview',
			() => reviewer.spaces.submitChangeRequestReview(space.id, cr.id, { status: 'approved', comment: { markdown: 'Looks good.' } }),
			{ status: 201 },
		);
		review = data;
		eq(review.object, 'change-request-review', 'object');
		eq(review.reviewer.id, reviewerId, 'reviewer');
		eq(review.outdated, false, 'outdated');
		eq(review.comment?.body?.markdown, 'Looks good.\n', 'review comment');
		eq(headers.get('location'), review.urls.location, 'Location header');
		const { data: list } = await call('getReviewsByChangeRequestId', () => reader.spaces.getReviewsByChangeRequestId(space.id, cr.id, { outdated: false }), {
			status: 200,
		});
		has(list.items, review.id, 'reviews');
		const { data: got } = await call('getChangeRequestReviewById', () => reader.spaces.getChangeRequestReviewById(space.id, cr.id, review.id), {
			status: 200,
		});
		eq(got.status, 'approved', 'status');
		await fails('getChangeRequestReviewById', () => reader.spaces.getChangeRequestReviewById(space.id, cr.id, 'N0000000000000000000'), 404);
		const { data: left } = await call('getRequestedReviewersByChangeRequestId', () => admin.spaces.getRequestedReviewersByChangeRequestId(space.id, cr.id), {
			status: 200,
		});
		eq(left.items.length, 0, 'requests after the review');
	});

	t.step('removeRequestedReviewerFromChangeRequest: 205, then 204', async ({ admin, call, need, reviewerId }) => {
		need(review, 'the review');
		await call('requestReviewersForChangeRequest', () => admin.spaces.requestReviewersForChangeRequest(space.id, cr.id, { users: [reviewerId] }), {
			status: 200,
		});
		await call('removeRequestedReviewerFromChangeRequest', () => admin.spaces.removeRequestedReviewerFromChangeRequest(space.id, cr.id, reviewerId), {
			status: 205,
		});
		await call('removeRequestedReviewerFromChangeRequest', () => admin.spaces.removeRequestedReviewerFromChangeRequest(space.id, cr.id, reviewerId), {
			status: 204,
		});
	});

	t.step('a merge rule naming the reviewer: refused (412) until they approve', async ({ admin, reviewer, call, fails, need, reviewerId }) => {
		need(review, 'the review');
		await call(
			'updateSpaceById',
			() =>
				admin.spaces.updateSpaceById(space.id, {
					mergeRules: { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [reviewerId] }] },
				}),
			{ status: 200 },
		);
		const { data: other } = await call('createChangeRequest', () => admin.spaces.createChangeRequest(space.id, { subject: 'Unreviewed' }), {
			status: 201,
		});
		await fails('mergeChangeRequest', () => admin.spaces.mergeChangeRequest(space.id, other.id), 412);
		await call('submitChangeRequestReview', () => reviewer.spaces.submitChangeRequestReview(space.id, other.id, { status: 'approved' }), {
			status: 201,
		});
		const { data: merged } = await call('mergeChangeRequest', () => admin.spaces.mergeChangeRequest(space.id, other.id), { status: 200 });
		eq(merged.result, 'merge', 'result');
		await call('deleteCommentInChangeRequest', () => admin.spaces.deleteCommentInChangeRequest(space.id, cr.id, crComment.id), { status: 205 });
	});
}
