// Documented seed additions: fields the product's seeds
// (shared/seeds/000_e1fa869a1c6c471a.txt) give to a resource although the
// pinned reference (@gitbook/api 0.146.0, spec/openapi.json) does not declare
// them. The seeds win over the reference (shared/reference/GAPS.md §0: the
// seeds come from a revision between 0.146.0 and 0.167.0), so Quire serving
// these fields is expected, not a discrepancy.
//
// lib/openapi.mjs declares each of them, in memory, on its copy of the
// reference document before anything is validated: a response carrying one
// is then checked against the definition below (a wrong type or enum value
// still fails) and is not reported as undeclared. Nothing is made required.
// Anything not listed here is checked against the reference as shipped.
//
// Keep this the only place where the reference is amended; each entry names
// the seed text that documents it.
export const SEED_ADDITIONS = [
	{
		// Seed, "Page" (document 2): `linkTitle` among the page's fields
		// (0.167.0: a string of 1..100 characters on every page).
		schema: ['RevisionPageBase'],
		property: 'linkTitle',
		definition: { type: 'string', minLength: 1, maxLength: 100 },
	},
	{
		// Seed, "Page" (document 2): `metaLinks {canonical (content
		// reference), alternates[]}` (0.167.0: each a page or URL reference).
		schema: ['RevisionPageDocument', 'allOf', '2'],
		property: 'metaLinks',
		definition: {
			type: 'object',
			properties: {
				canonical: { oneOf: [{ $ref: '#/components/schemas/ContentRefPage' }, { $ref: '#/components/schemas/ContentRefURL' }] },
				alternates: { type: 'array', items: { oneOf: [{ $ref: '#/components/schemas/ContentRefPage' }, { $ref: '#/components/schemas/ContentRefURL' }] } },
			},
		},
	},
	{
		// Seed, "Site (object = site)": `appliedType | string enum | currently
		// applied type (a frozen site shows a basic type)`. Later references
		// (0.167.0) declare it as SiteType.
		schema: ['Site'],
		property: 'appliedType',
		definition: { $ref: '#/components/schemas/SiteType' },
	},
	{
		// Seed, "Site space (object = site-space)": `hidden | boolean | no |
		// when true the site space is not in navigation` (also settable by
		// PATCH .../site-spaces/{siteSpaceId}).
		schema: ['SiteSpace'],
		property: 'hidden',
		definition: { type: 'boolean' },
	},
	{
		// Seed, "Published site profile", customization keys: `header (logo
		// {light,dark}, primaryLink reference, links[] ...)`, a content
		// reference (0.167.0: ContentRef).
		schema: ['SiteCustomizationSettings', 'properties', 'header'],
		property: 'primaryLink',
		definition: { $ref: '#/components/schemas/ContentRef' },
	},
	{
		// Seed, "Published site profile", customization keys: `ai (mode,
		// suggestions[])` (0.167.0: at most 5 strings of 3..64 characters).
		schema: ['SiteCustomizationSettings', 'properties', 'ai'],
		property: 'suggestions',
		definition: { type: 'array', maxItems: 5, items: { type: 'string', minLength: 3, maxLength: 64 } },
	},
	{
		// Seed, "Conversations": issues cluster "`muted` (boolean; muted for
		// change request creation)".
		schema: ['ConversationsIssuesCluster'],
		property: 'muted',
		definition: { type: 'boolean' },
	},
	...['ConversationsIssuesCluster', 'Conversation', 'ConversationIssue'].map((name) => ({
		// Seed, "Conversations": "`impact` (`low`: minor friction; `medium`:
		// ...; `high`: ...)" on clusters, conversations and issues.
		schema: [name],
		property: 'impact',
		definition: { type: 'string', enum: ['low', 'medium', 'high'] },
	})),
	{
		// Seed, "Conversations": conversation issue "`details` (Document)".
		schema: ['ConversationIssue'],
		property: 'details',
		definition: { $ref: '#/components/schemas/JSONDocument' },
	},
	{
		// Seed 001, "Organization": `billing {interval, endDate, ...,
		// minUsers, maxUsers, paidMembers}` (0.167.0: numbers).
		schema: ['OrganizationBilling'],
		property: 'minUsers',
		definition: { type: 'number' },
	},
	{
		// Seed 001, "Organization": `billing {..., paidMembers}`.
		schema: ['OrganizationBilling'],
		property: 'paidMembers',
		definition: { type: 'number' },
	},
	{
		// Seed, "Space content": GET {s}/search answers pages with
		// `ancestors [{title}]`; later references (0.167.0) declare it.
		schema: ['SearchPageResult'],
		property: 'ancestors',
		definition: { type: 'array', items: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] } },
	},
];

// Seed changes: where the seeds give a field of the reference another
// shape, or leave out a field the reference requires (GAPS.md §0: the
// seeds describe the conversations API in a newer shape than 0.146.0).
// Each entry replaces a declared property's definition, or makes declared
// required properties optional; it throws when the target is missing.
export const SEED_CHANGES = [
	{
		// Seed, "Conversations": "Issues cluster (object = issues-cluster):
		// ... `summary` (Document)". 0.146.0 declares a string.
		schema: ['ConversationsIssuesCluster'],
		replace: 'summary',
		definition: { $ref: '#/components/schemas/JSONDocument' },
	},
	{
		// Seed, "Conversations": "`stats {issues, conversations}`". 0.146.0
		// also requires the counts of tasks, which the seeds do not have.
		schema: ['ConversationsIssuesCluster', 'properties', 'stats'],
		optional: ['tasksTotal', 'tasksBacklog', 'tasksStarted', 'tasksCompleted', 'tasksCancelled'],
	},
];

// Seed renames: properties the seeds name otherwise than the reference
// (shared/reference/GAPS.md §0: brand-neutral renames of the seed
// authors). The property is renamed in place, required or not as it was.
export const SEED_RENAMES = [
	{
		// Seed, "Revision": `git {oid, message, createdByService (boolean),
		// url, ref}`; the reference's GitSyncCommit calls it createdByGitBook.
		schema: ['GitSyncCommit'],
		from: 'createdByGitBook',
		to: 'createdByService',
	},
];

// Documented seed amendments: keywords of a schema whose value the seeds
// give otherwise than the reference. Each replaces exactly the value the
// reference ships (checked), so that a reference that changed is noticed.
export const SEED_AMENDMENTS = [
	{
		// Seed, "OpenAPI specification (object = openapi-spec)": `slug
		// (pattern ^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$)`: upper case letters are
		// allowed (0.146.0 allows lower case only; 0.167.0 follows the seed).
		schema: ['OpenAPISpecSlug'],
		keyword: 'pattern',
		from: '^[a-z0-9]+(?:-[a-z0-9]+)*$',
		to: '^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$',
	},
];

/**
 * Declares the seed additions on an OpenAPI document (mutated in place).
 * Throws when a target is missing or already declares the property: the
 * reference changed and this list must be revisited.
 */
export function declareSeedAdditions(doc) {
	for (const { schema, property, definition } of SEED_ADDITIONS) {
		let target = doc.components.schemas;
		for (const key of schema) target = target?.[key];
		const where = `components.schemas.${schema.join('.')}`;
		if (!target || typeof target !== 'object' || !target.properties) {
			throw new Error(`seed addition ${property}: ${where} is not an object schema with properties in the reference`);
		}
		if (property in target.properties) {
			throw new Error(`seed addition ${property}: ${where} already declares it; drop it from lib/seed-additions.mjs`);
		}
		target.properties[property] = definition;
	}
	for (const { schema, from, to } of SEED_RENAMES) {
		let target = doc.components.schemas;
		for (const key of schema) target = target?.[key];
		const where = `components.schemas.${schema.join('.')}`;
		if (!target?.properties?.[from] || to in target.properties) {
			throw new Error(`seed rename ${from} → ${to}: ${where} does not declare ${from} alone in the reference`);
		}
		target.properties[to] = target.properties[from];
		delete target.properties[from];
		if (Array.isArray(target.required)) target.required = target.required.map((r) => (r === from ? to : r));
	}
	for (const { schema, replace, definition, optional } of SEED_CHANGES) {
		let target = doc.components.schemas;
		for (const key of schema) target = target?.[key];
		const where = `components.schemas.${schema.join('.')}`;
		if (!target || typeof target !== 'object' || !target.properties) {
			throw new Error(`seed change: ${where} is not an object schema with properties in the reference`);
		}
		if (replace) {
			if (!(replace in target.properties)) throw new Error(`seed change: ${where} does not declare ${replace}`);
			target.properties[replace] = definition;
		}
		for (const name of optional ?? []) {
			if (!target.required?.includes(name)) throw new Error(`seed change: ${where} does not require ${name}`);
			target.required = target.required.filter((r) => r !== name);
		}
	}
	for (const { schema, keyword, from, to } of SEED_AMENDMENTS) {
		let target = doc.components.schemas;
		for (const key of schema) target = target?.[key];
		const where = `components.schemas.${schema.join('.')}.${keyword}`;
		if (!target || target[keyword] !== from) {
			throw new Error(`seed amendment: ${where} is ${JSON.stringify(target?.[keyword])} in the reference, not ${JSON.stringify(from)}; revisit lib/seed-additions.mjs`);
		}
		target[keyword] = to;
	}
	return doc;
}
