// Support conversations and translations: ingestConversation (one and an
// array), listConversations, getConversationById, listConversationsIssues,
// getConversationIssueById, listConversationsIssuesClusters,
// getConversationsIssuesCluster; createTranslation, listTranslations,
// getTranslation, updateTranslation, runTranslation (a run through the
// LibreTranslate-compatible server run.sh starts), deleteTranslation.
//
// ingestConversation is documented for integration-installation tokens;
// Quire has user tokens only, and takes an organization admin's.
import { eq, has, ok } from '../lib/assert.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// until polls fn (every 200 ms, at most 25 s) until it returns a truthy value.
async function until(what, fn) {
	for (let i = 0; i < 125; i++) {
		const v = await fn();
		if (v) return v;
		await sleep(200);
	}
	throw new Error(`timed out waiting for ${what}`);
}

const conversation = (id, body, subject) => ({
	id,
	subject,
	parts: [
		{ type: 'message', role: 'user', body },
		{ type: 'message', role: 'assistant', body: 'Thanks, we are looking into it.' },
	],
	metadata: { url: `https://support.example.com/tickets/${id}`, attributes: { plan: 'pro' } },
});

const doc = (text) => ({
	object: 'document',
	data: {},
	nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] }],
});

export default function transconv(t) {
	let conv, cluster, issue;

	t.step('ingestConversation takes one conversation, then an array (204)', async ({ admin, call, orgId }) => {
		await call('ingestConversation', () => admin.orgs.ingestConversation(orgId, conversation('t-1', 'Exporting to PDF gives a blank page.', 'PDF export broken')), {
			status: 204,
		});
		await call(
			'ingestConversation',
			() =>
				admin.orgs.ingestConversation(orgId, [
					conversation('t-2', 'The PDF export is blank again, every time.'),
					conversation('t-3', 'SSO login loops forever with our Okta setup.'),
					conversation('t-4', 'Our SAML single sign-on login fails and redirects back to the login page.'),
					conversation('t-1', 'Exporting to PDF gives a blank page.', 'PDF export broken'),
				]),
			{ status: 204 },
		);
	});

	t.step('ingestConversation by a reader is refused (403)', async ({ reader, fails, orgId }) => {
		await fails('ingestConversation', () => reader.orgs.ingestConversation(orgId, conversation('r-1', 'x')), 403);
	});

	t.step('listConversations lists each id once, analysed', async ({ reader, call, orgId }) => {
		const data = await until('the analysis', async () => {
			const { data } = await call('listConversations', () => reader.orgs.listConversations(orgId));
			return data.items.length === 4 && data.items.every((c) => c.processedAt) ? data : null;
		});
		eq(data.count, 4, 'count (an id ingested twice is one conversation)');
		conv = data.items.find((c) => c.subject === 'PDF export broken');
		ok(conv, 'the conversation with a subject');
		eq(conv.object, 'conversation', 'object');
		eq(conv.urls.source, 'https://support.example.com/tickets/t-1', 'urls.source');
	});

	t.step('getConversationById returns the conversation, its parts and metadata', async ({ reader, call, orgId, need }) => {
		need(conv, 'a conversation');
		const { data } = await call('getConversationById', () => reader.orgs.getConversationById(orgId, conv.id));
		eq(data.conversation.id, conv.id, 'conversation.id');
		eq(data.parts.length, 2, 'parts');
		eq(data.parts[0].role, 'user', 'parts[0].role');
		eq(data.metadata.attributes.plan, 'pro', 'metadata.attributes.plan');
	});

	t.step('listConversationsIssuesClusters groups the issues by problem', async ({ reader, call, orgId }) => {
		const { data } = await call('listConversationsIssuesClusters', () => reader.orgs.listConversationsIssuesClusters(orgId, { orderBy: 'issues' }));
		eq(data.count, 2, 'two problems, two clusters');
		for (const c of data.items) {
			eq(c.weeklyPulse.length, 13, 'weeklyPulse');
			eq(c.stats.issues, 2, `stats.issues of ${c.label}`);
			eq(c.stats.conversations, 2, `stats.conversations of ${c.label}`);
			ok(c.summary.object === 'document', 'summary is a document');
		}
		cluster = data.items[0];
	});

	t.step('getConversationsIssuesCluster returns a cluster', async ({ reader, call, orgId, need }) => {
		need(cluster, 'a cluster');
		const { data } = await call('getConversationsIssuesCluster', () => reader.orgs.getConversationsIssuesCluster(orgId, cluster.id));
		eq(data.id, cluster.id, 'id');
		eq(data.label, cluster.label, 'label');
	});

	t.step('listConversationsIssues filters by cluster and conversation', async ({ reader, call, orgId, need }) => {
		need(cluster, 'a cluster');
		const { data } = await call('listConversationsIssues', () => reader.orgs.listConversationsIssues(orgId, { cluster: cluster.id }));
		eq(data.count, 2, 'issues of the cluster');
		for (const it of data.items) eq(it.issue.cluster, cluster.id, 'issue.cluster');
		const { data: one } = await call('listConversationsIssues', () =>
			reader.orgs.listConversationsIssues(orgId, { conversation: data.items[0].conversation.id }),
		);
		eq(one.items[0].conversation.id, data.items[0].conversation.id, 'conversation filter');
		issue = data.items[0].issue;
	});

	t.step('getConversationIssueById returns the issue and its conversation', async ({ reader, call, orgId, need, fails }) => {
		need(issue, 'an issue');
		const { data } = await call('getConversationIssueById', () => reader.orgs.getConversationIssueById(orgId, issue.id));
		eq(data.issue.id, issue.id, 'issue.id');
		eq(data.conversation.id, issue.conversation, 'conversation.id');
		ok(['low', 'medium', 'high'].includes(data.issue.impact), 'impact');
		await fails('getConversationIssueById', () => reader.orgs.getConversationIssueById(orgId, 'hAAAAAAAAAAAAAAAAAAA'), 404);
	});

	let space, translation;
	t.step('createTranslation of a space (201)', async ({ admin, call, orgId, fails, reader }) => {
		({ data: space } = await call('createSpace', () => admin.orgs.createSpace(orgId, { title: 'Handbook', language: 'en' }), { status: 201 }));
		await call('applyTemplateToSpace', () => admin.spaces.applyTemplateToSpace(space.id, { id: 'getting-started' }), { status: 201 });
		({ data: translation } = await call(
			'createTranslation',
			() => admin.orgs.createTranslation(orgId, { source: { space: space.id, language: 'en' }, language: 'fr', instructions: doc("Keep 'Quire' untranslated.") }),
			{ status: 201 },
		));
		eq(translation.status, 'pending', 'status');
		eq(translation.stats.runs, 0, 'stats.runs');
		eq(translation.source.space, space.id, 'source.space');
		await fails('createTranslation', () => reader.orgs.createTranslation(orgId, { source: { space: space.id, language: 'en' }, language: 'de' }), 403);
		await fails('createTranslation', () => admin.orgs.createTranslation(orgId, { source: { space: space.id, language: 'en' }, language: 'en' }), 400);
	});

	t.step('listTranslations, getTranslation, updateTranslation', async ({ admin, reader, call, orgId, need }) => {
		need(translation, 'a translation');
		const { data } = await call('listTranslations', () => reader.orgs.listTranslations(orgId));
		has(data.items, translation.id, 'items');
		const { data: got } = await call('getTranslation', () => reader.orgs.getTranslation(orgId, translation.id));
		eq(got.permissions.edit, false, 'permissions.edit of a reader');
		const { data: upd } = await call('updateTranslation', () => admin.orgs.updateTranslation(orgId, translation.id, { instructions: doc('Translate "space" as "espace".') }));
		eq(upd.instructions.nodes.length, 1, 'instructions');
	});

	t.step('runTranslation (204) translates the space into a result space', async ({ admin, call, orgId, need, fails }) => {
		need(translation, 'a translation');
		await call('runTranslation', () => admin.orgs.runTranslation(orgId, translation.id), { status: 204 });
		const done = await until('the run', async () => {
			const { data } = await call('getTranslation', () => admin.orgs.getTranslation(orgId, translation.id));
			return data.status === 'completed' ? data : null;
		});
		eq(done.stats.runs, 1, 'stats.runs');
		ok(done.stats.latestPages > 0 && done.stats.totalPages === done.stats.latestPages, `stats.latestPages ${done.stats.latestPages}`);
		ok(done.stats.latestWords > 0, 'stats.latestWords');
		const { data: result } = await call('getSpaceById', () => admin.spaces.getSpaceById(done.result.space));
		eq(result.language, 'fr', 'the result space language');
		eq(result.revision, done.result.revision, 'result.revision is the result space revision');
		await fails('runTranslation', () => admin.orgs.runTranslation(orgId, 'HAAAAAAAAAAAAAAAAAAA'), 404);
	});

	t.step('deleteTranslation answers 205, then 204', async ({ admin, call, orgId, need }) => {
		need(translation, 'a translation');
		await call('deleteTranslation', () => admin.orgs.deleteTranslation(orgId, translation.id), { status: 205 });
		await call('deleteTranslation', () => admin.orgs.deleteTranslation(orgId, translation.id), { status: 204 });
	});
}
