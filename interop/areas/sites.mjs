// Docs sites: sites (create, list and its filters, get, update, publish,
// unpublish, delete), the structure (site spaces at the root, then sections
// and section groups; sortSiteStructure and the three deprecated moves),
// site spaces, sections, section groups, customization (site and site-space
// overrides), the adaptive schema and its template conditions, share links
// (and the share key on a share-link site), the published profile.
//
// Fields the seeds add to the reference (Site.appliedType, SiteSpace.hidden,
// ...) are declared in lib/seed-additions.mjs and checked like any other.
import { absent, deepEq, eq, has, ids, lacks, ok } from '../lib/assert.mjs';

const same = (actual, expected, what) => deepEq(actual, expected, what);

export default function sites(t) {
	const sp = {}; // spaces by role: guide, api, extra, reference, changelog, other, variant
	let A; // the site most steps work on (spaces at the root, later sections)
	let B; // a site created without a body, later shared by link
	let C; // a premium site, for the type filter
	const ss = {}; // site spaces of A: guide, api, extra, changelog, variant
	let secD; // default section of A, made when the first section is added
	let secR; // the section added to A
	let grp; // a section group of A
	let inner; // a group nested in grp
	let settings; // A's customization as last PUT
	let link; // share link of B
	let key; // its share key

	// --- helpers -----------------------------------------------------------

	const site = (ctx, id) => ctx.call('getSiteById', () => ctx.admin.orgs.getSiteById(ctx.orgId, id), { status: 200 });
	const listSites = (ctx, query) => ctx.call('listSites', () => ctx.admin.orgs.listSites(ctx.orgId, query), { status: 200 });
	const structure = async (ctx, id, query) =>
		(await ctx.call('getSiteStructure', () => ctx.admin.orgs.getSiteStructure(ctx.orgId, id, query), { status: 200 })).data;
	const siteSpaces = async (ctx, id, query) =>
		(await ctx.call('listSiteSpaces', () => ctx.admin.orgs.listSiteSpaces(ctx.orgId, id, query), { status: 200 })).data;
	const sections = async (ctx, id, query) =>
		(await ctx.call('listSiteSections', () => ctx.admin.orgs.listSiteSections(ctx.orgId, id, query), { status: 200 })).data;
	const groups = async (ctx, id) =>
		(await ctx.call('listSiteSectionGroups', () => ctx.admin.orgs.listSiteSectionGroups(ctx.orgId, id), { status: 200 })).data;
	const patchSiteSpace = (ctx, id, body) =>
		ctx.call('updateSiteSpaceById', () => ctx.admin.orgs.updateSiteSpaceById(ctx.orgId, A.id, id, body), { status: 200 });
	const patchSection = (ctx, id, body) =>
		ctx.call('updateSiteSectionById', () => ctx.admin.orgs.updateSiteSectionById(ctx.orgId, A.id, id, body), { status: 200 });
	const patchSite = (ctx, id, body) => ctx.call('updateSiteById', () => ctx.admin.orgs.updateSiteById(ctx.orgId, id, body), { status: 200 });
	const spaceCustomization = async (ctx, id) =>
		(await ctx.call('getSiteSpaceCustomizationById', () => ctx.admin.orgs.getSiteSpaceCustomizationById(ctx.orgId, A.id, id), { status: 200 }))
			.data;
	const override = async (ctx, id, body) =>
		(await ctx.call('overrideSiteSpaceCustomizationById', () => ctx.admin.orgs.overrideSiteSpaceCustomizationById(ctx.orgId, A.id, id, body), {
			status: 200,
		})).data;
	// ids of the root of a structure, in order
	const rootIds = (s) => s.structure.map((x) => x.id);
	const siteURL = (ctx, id) => `${ctx.url}/v1/orgs/${ctx.orgId}/sites/${id}`;
	const byId = (items, id, what) => {
		const x = items.find((i) => i.id === id);
		ok(x, `${what}: ${id} is missing from ${JSON.stringify(ids(items))}`);
		return x;
	};

	// --- sites ---------------------------------------------------------------

	t.step('createSpace x7 (the content the sites publish)', async ({ admin, call, orgId }) => {
		const titles = {
			guide: 'Interop Guide',
			api: 'Interop API',
			extra: 'Interop Extra',
			reference: 'Interop Reference',
			changelog: 'Interop Changelog',
			other: 'Interop Other',
			variant: 'Interop Variant',
		};
		for (const [k, title] of Object.entries(titles)) {
			({ data: sp[k] } = await call('createSpace', () => admin.orgs.createSpace(orgId, { title }), { status: 201 }));
		}
	});

	t.step('createSite with title, visibility and spaces', async (ctx) => {
		ctx.need(sp.api, 'the spaces');
		const { data: s, headers } = await ctx.call('createSite', () =>
			ctx.admin.orgs.createSite(ctx.orgId, { title: 'Interop Docs', visibility: 'public', spaces: [sp.guide.id, sp.api.id] }),
		{ status: 201 });
		eq(s.object, 'site', 'object');
		eq(s.title, 'Interop Docs', 'title');
		eq(s.type, 'basic', 'type (defaults to basic)');
		eq(s.appliedType, 'basic', 'appliedType (seed addition)');
		eq(s.visibility, 'public', 'visibility');
		eq(s.published, false, 'published of a new site');
		eq(s.siteSpaces, 2, 'siteSpaces (count)');
		eq(s.urls.location, siteURL(ctx, s.id), 'urls.location');
		eq(headers.get('location'), s.urls.location, 'Location header');
		absent(s.urls, 'published', 'urls of an unpublished site');
		A = s;
	});

	t.step('createSite without a body: type basic, visibility public', async (ctx) => {
		const { data: s } = await ctx.call('createSite', () => ctx.admin.orgs.createSite(ctx.orgId), { status: 201 });
		eq(s.type, 'basic', 'type');
		eq(s.visibility, 'public', 'visibility');
		eq(s.published, false, 'published');
		eq(s.siteSpaces, 0, 'siteSpaces');
		B = s;
	});

	t.step('createSite with type premium', async (ctx) => {
		const { data: s } = await ctx.call('createSite', () =>
			ctx.admin.orgs.createSite(ctx.orgId, { type: 'premium', title: 'Interop Premium', visibility: 'unlisted' }),
		{ status: 201 });
		eq(s.type, 'premium', 'type');
		eq(s.visibility, 'unlisted', 'visibility');
		C = s;
	});

	t.step('getSiteById returns the site', async (ctx) => {
		ctx.need(A, 'the site');
		const { data: s } = await site(ctx, A.id);
		for (const k of ['id', 'title', 'type', 'appliedType', 'visibility', 'published', 'siteSpaces', 'createdAt', 'basename', 'agentsContext']) {
			eq(s[k], A[k], k);
		}
		same(s.urls, A.urls, 'urls');
	});

	t.step('listSites with filters space, title, published and type', async (ctx) => {
		ctx.need(A, 'the site');
		ctx.need(B, 'the second site');
		ctx.need(C, 'the premium site');
		const { data: all } = await listSites(ctx);
		for (const x of [A, B, C]) has(all.items, x.id, 'all sites');
		if (all.count !== undefined) eq(all.count, all.items.length, 'count');
		const { data: bySpace } = await listSites(ctx, { space: sp.guide.id });
		same(ids(bySpace.items), [A.id], 'space filter');
		const { data: byTitle } = await listSites(ctx, { title: 'INTEROP docs' });
		same(ids(byTitle.items), [A.id], 'title filter (case-insensitive contains)');
		const { data: unpublished } = await listSites(ctx, { published: false });
		for (const x of [A, B, C]) has(unpublished.items, x.id, 'published=false');
		const { data: published } = await listSites(ctx, { published: true });
		for (const x of [A, B, C]) lacks(published.items, x.id, 'published=true');
		const { data: premium } = await listSites(ctx, { type: ['premium'] });
		has(premium.items, C.id, 'type=premium');
		lacks(premium.items, A.id, 'type=premium');
		const { data: both } = await listSites(ctx, { type: ['basic', 'premium'] });
		for (const x of [A, B, C]) has(both.items, x.id, 'type=basic&type=premium');
		const { data: page } = await listSites(ctx, { limit: 1 });
		eq(page.items.length, 1, 'items with limit 1');
		ok(page.next && typeof page.next.page === 'string', 'next.page with limit 1 and 3+ sites');
	});

	t.step('updateSiteById title, basename, agentsContext, adaptiveContent', async (ctx) => {
		ctx.need(A, 'the site');
		const { data: s } = await patchSite(ctx, A.id, {
			title: 'Interop Handbook',
			basename: 'interop-handbook',
			agentsContext: 'included',
			adaptiveContent: { enabled: true },
		});
		eq(s.title, 'Interop Handbook', 'title');
		eq(s.basename, 'interop-handbook', 'basename');
		eq(s.agentsContext, 'included', 'agentsContext');
		eq(s.adaptiveContent?.enabled, true, 'adaptiveContent.enabled');
		eq(s.visibility, 'public', 'visibility is unchanged');
		const { data: again } = await site(ctx, A.id);
		eq(again.title, 'Interop Handbook', 'title after a new GET');
		eq(again.basename, 'interop-handbook', 'basename after a new GET');
		eq(again.agentsContext, 'included', 'agentsContext after a new GET');
		A = again;
	});

	t.step('updateSiteById visibility unlisted, then public', async (ctx) => {
		ctx.need(A, 'the site');
		eq((await patchSite(ctx, A.id, { visibility: 'unlisted' })).data.visibility, 'unlisted', 'visibility');
		eq((await site(ctx, A.id)).data.visibility, 'unlisted', 'visibility after a new GET');
		eq((await patchSite(ctx, A.id, { visibility: 'public' })).data.visibility, 'public', 'visibility');
	});

	t.step('updateSiteById proxy, then proxy null removes it', async (ctx) => {
		ctx.need(A, 'the site');
		let removed = false;
		try {
			const { data: s } = await patchSite(ctx, A.id, { proxy: 'example.com/handbook' });
			ok(s.proxy && typeof s.proxy === 'object', `proxy is an object {origin, target}, got ${JSON.stringify(s.proxy)}`);
			// Reference: Site.proxy.origin is a SiteProxyOrigin, the same
			// scheme-less "domain/path" string the PATCH takes.
			eq(s.proxy.origin, 'example.com/handbook', 'proxy.origin (the origin as sent)');
			ok(typeof s.proxy.target === 'string' && s.proxy.target !== '', 'proxy.target');
			const { data: none } = await patchSite(ctx, A.id, { proxy: null });
			removed = true;
			absent(none, 'proxy', 'site after proxy: null');
			absent((await site(ctx, A.id)).data, 'proxy', 'site after proxy: null and a new GET');
		} finally {
			// A site left with a proxy would fail every later read of it.
			if (!removed) await ctx.admin.orgs.updateSiteById(ctx.orgId, A.id, { proxy: null }).catch(() => {});
		}
	});

	// --- site spaces at the root ---------------------------------------------

	t.step('listSiteSpaces: the spaces of createSite at the root, the first one default', async (ctx) => {
		ctx.need(A, 'the site');
		const list = await siteSpaces(ctx, A.id);
		eq(list.items.length, 2, 'site spaces');
		const [g, a] = list.items;
		eq(g.object, 'site-space', 'object');
		eq(g.space.id, sp.guide.id, 'space of the first site space');
		eq(a.space.id, sp.api.id, 'space of the second site space');
		eq(g.title, sp.guide.title, 'title (the space title)');
		eq(g.default, true, 'default of the first site space');
		eq(a.default, false, 'default of the second site space');
		absent(g, 'section', 'a root site space');
		ok(g.path !== a.path, 'paths differ');
		ss.guide = g;
		ss.api = a;
		const s = await structure(ctx, A.id);
		eq(s.type, 'siteSpaces', 'structure type');
		same(rootIds(s), [g.id, a.id], 'structure');
	});

	t.step('addSpaceToSite without sectionId adds at the root, at the end', async (ctx) => {
		ctx.need(ss.api, 'the site spaces');
		const { data: x, headers } = await ctx.call('addSpaceToSite', () => ctx.admin.orgs.addSpaceToSite(ctx.orgId, A.id, { spaceId: sp.extra.id }), {
			status: 201,
		});
		eq(x.object, 'site-space', 'object');
		eq(x.space.id, sp.extra.id, 'space');
		eq(x.default, false, 'default');
		absent(x, 'section', 'site space added to a site without sections');
		ok(headers.get('location').endsWith(`/sites/${A.id}/site-spaces/${x.id}`), `Location ${headers.get('location')}`);
		ss.extra = x;
		same(rootIds(await structure(ctx, A.id)), [ss.guide.id, ss.api.id, x.id], 'structure');
		eq((await site(ctx, A.id)).data.siteSpaces, 3, 'siteSpaces of the site');
	});

	t.step('updateSiteSpaceById path, condition, hidden; omitted fields stay; condition null removes', async (ctx) => {
		ctx.need(ss.extra, 'the third site space');
		const id = ss.extra.id;
		let { data: x } = await patchSiteSpace(ctx, id, { path: 'extra', condition: 'visitor.claims.beta == true', hidden: true });
		eq(x.path, 'extra', 'path');
		eq(x.condition, 'visitor.claims.beta == true', 'condition');
		eq(x.hidden, true, 'hidden (seed addition)');
		({ data: x } = await patchSiteSpace(ctx, id, { path: 'extra-2' }));
		eq(x.path, 'extra-2', 'path');
		eq(x.condition, 'visitor.claims.beta == true', 'condition after a patch without it');
		eq(x.hidden, true, 'hidden after a patch without it');
		({ data: x } = await patchSiteSpace(ctx, id, { condition: null, hidden: false }));
		absent(x, 'condition', 'site space after condition: null');
		eq(x.hidden, false, 'hidden');
		eq(x.path, 'extra-2', 'path after a patch without it');
		const listed = byId((await siteSpaces(ctx, A.id)).items, id, 'listSiteSpaces');
		eq(listed.path, 'extra-2', 'path after a new list');
		absent(listed, 'condition', 'listed site space');
	});

	t.step('sortSiteStructure moves a site space before another', async (ctx) => {
		ctx.need(ss.extra, 'the third site space');
		const { data: x } = await ctx.call('sortSiteStructure', () =>
			ctx.admin.orgs.sortSiteStructure(ctx.orgId, A.id, {
				item: { type: 'site-space', id: ss.extra.id },
				position: { before: { type: 'site-space', id: ss.guide.id } },
			}),
		{ status: 200 });
		eq(x.object, 'site-space', 'object of the moved item');
		eq(x.id, ss.extra.id, 'id of the moved item');
		same(rootIds(await structure(ctx, A.id)), [ss.extra.id, ss.guide.id, ss.api.id], 'structure');
	});

	t.step('moveSiteSpace (deprecated) after another site space', async (ctx) => {
		ctx.need(ss.extra, 'the third site space');
		const { data: x } = await ctx.call('moveSiteSpace', () =>
			ctx.admin.orgs.moveSiteSpace(ctx.orgId, A.id, ss.extra.id, { position: { after: { type: 'site-space', siteSpace: ss.api.id } } }),
		{ status: 200 });
		eq(x.id, ss.extra.id, 'id');
		same(rootIds(await structure(ctx, A.id)), [ss.guide.id, ss.api.id, ss.extra.id], 'structure');
	});

	t.step('updateSiteById defaultSiteSpace; listSiteSpaces default filter', async (ctx) => {
		ctx.need(ss.extra, 'the site spaces');
		await patchSite(ctx, A.id, { defaultSiteSpace: ss.api.id });
		same(ids((await siteSpaces(ctx, A.id, { default: true })).items), [ss.api.id], 'default=true');
		same(ids((await siteSpaces(ctx, A.id, { default: false })).items), [ss.guide.id, ss.extra.id], 'default=false');
		const all = (await siteSpaces(ctx, A.id)).items;
		eq(byId(all, ss.guide.id, 'site spaces').default, false, 'default of the former default');
	});

	// --- publishing ----------------------------------------------------------

	t.step('publishSite sets published and urls.published', async (ctx) => {
		ctx.need(A, 'the site');
		const { data: s } = await ctx.call('publishSite', () => ctx.admin.orgs.publishSite(ctx.orgId, A.id), { status: 200 });
		eq(s.object, 'site', 'object (a Site, not a checkout session)');
		eq(s.published, true, 'published');
		ok(typeof s.urls.published === 'string', 'urls.published of a published site');
		eq((await site(ctx, A.id)).data.published, true, 'published after a new GET');
		const { data: pub } = await listSites(ctx, { published: true });
		has(pub.items, A.id, 'published=true');
		const { data: unpub } = await listSites(ctx, { published: false });
		lacks(unpub.items, A.id, 'published=false');
		const list = await siteSpaces(ctx, A.id);
		for (const x of list.items) ok(typeof x.urls.published === 'string', `urls.published of site space ${x.id}`);
	});

	t.step('unpublishSite clears published and urls.published, publishSite again', async (ctx) => {
		ctx.need(A, 'the site');
		const { data: s } = await ctx.call('unpublishSite', () => ctx.admin.orgs.unpublishSite(ctx.orgId, A.id), { status: 200 });
		eq(s.published, false, 'published');
		absent(s.urls, 'published', 'urls of an unpublished site');
		eq((await site(ctx, A.id)).data.published, false, 'published after a new GET');
		for (const x of (await siteSpaces(ctx, A.id)).items) absent(x.urls, 'published', `urls of site space ${x.id}`);
		const { data: again } = await ctx.call('publishSite', () => ctx.admin.orgs.publishSite(ctx.orgId, A.id), { status: 200 });
		eq(again.published, true, 'published after publishing again');
	});

	// --- customization -------------------------------------------------------

	t.step('getSiteCustomizationById, then updateSiteCustomizationById with the edited settings', async (ctx) => {
		ctx.need(A, 'the site');
		const { data: base } = await ctx.call('getSiteCustomizationById', () => ctx.admin.orgs.getSiteCustomizationById(ctx.orgId, A.id), {
			status: 200,
		});
		const edited = structuredClone(base);
		edited.title = 'Interop Handbook site';
		edited.styling.theme = 'bold';
		edited.styling.primaryColor = { light: '#346ddb', dark: '#5a8ae6' };
		edited.header.primaryLink = { kind: 'url', url: 'https://example.com/start' };
		edited.ai = { ...edited.ai, mode: 'search', suggestions: ['How do I start?'] };
		edited.pdf = { enabled: !base.pdf.enabled };
		const { data: put } = await ctx.call('updateSiteCustomizationById', () => ctx.admin.orgs.updateSiteCustomizationById(ctx.orgId, A.id, edited), {
			status: 200,
		});
		same(put, edited, 'the settings answered by PUT');
		const { data: again } = await ctx.call('getSiteCustomizationById', () => ctx.admin.orgs.getSiteCustomizationById(ctx.orgId, A.id), {
			status: 200,
		});
		same(again, edited, 'the settings after a new GET');
		settings = edited;
	});

	t.step('getSiteSpaceCustomizationById without overrides shows the site settings', async (ctx) => {
		ctx.need(settings, 'the site customization');
		same(await spaceCustomization(ctx, ss.guide.id), settings, 'settings of a site space without overrides');
	});

	t.step('overrideSiteSpaceCustomizationById merges overrides; null resets one', async (ctx) => {
		ctx.need(settings, 'the site customization');
		const id = ss.guide.id;
		let x = await override(ctx, id, { title: 'Guide variant', styling: { theme: 'muted' } });
		eq(x.title, 'Guide variant', 'title override');
		eq(x.styling.theme, 'muted', 'styling.theme override');
		same(x.styling.primaryColor, settings.styling.primaryColor, 'styling.primaryColor (the site value)');
		same(await spaceCustomization(ctx, id), x, 'settings after a new GET');
		x = await override(ctx, id, { styling: { theme: null } });
		eq(x.styling.theme, settings.styling.theme, 'styling.theme after null (the site value)');
		eq(x.title, 'Guide variant', 'title override kept by a patch without it');
		const other = await spaceCustomization(ctx, ss.api.id);
		same(other, settings, 'another site space is not affected');
	});

	t.step('deleteSiteSpaceCustomizationById answers 205, then 204', async (ctx) => {
		ctx.need(settings, 'the site customization');
		const del = () => ctx.admin.orgs.deleteSiteSpaceCustomizationById(ctx.orgId, A.id, ss.guide.id);
		await ctx.call('deleteSiteSpaceCustomizationById', del, { status: 205 });
		same(await spaceCustomization(ctx, ss.guide.id), settings, 'settings after removing the overrides');
		await ctx.call('deleteSiteSpaceCustomizationById', del, { status: 204 });
	});

	// --- sections ------------------------------------------------------------

	t.step('addSectionToSite gathers the root site spaces into a default section', async (ctx) => {
		ctx.need(ss.extra, 'the site spaces');
		const { data: sec, headers } = await ctx.call('addSectionToSite', () =>
			ctx.admin.orgs.addSectionToSite(ctx.orgId, A.id, { spaceId: sp.reference.id, title: 'Reference', icon: 'book' }),
		{ status: 201 });
		eq(sec.object, 'site-section', 'object');
		eq(sec.title, 'Reference', 'title');
		eq(sec.icon, 'book', 'icon');
		eq(sec.siteSpaces.length, 1, 'site spaces of the new section');
		eq(sec.siteSpaces[0].space.id, sp.reference.id, 'space of its site space');
		eq(sec.siteSpaces[0].section, sec.id, 'section of its site space');
		eq(sec.siteSpaces[0].default, true, 'the first site space of a section is its default');
		ok(headers.get('location').endsWith(`/sites/${A.id}/sections/${sec.id}`), `Location ${headers.get('location')}`);
		secR = sec;
		ss.reference = sec.siteSpaces[0];

		const list = await sections(ctx, A.id);
		eq(list.items.length, 2, 'sections');
		const [d, r] = list.items;
		eq(r.id, sec.id, 'the new section comes second');
		eq(d.title, 'Interop Handbook', 'title of the default section (the site title)');
		eq(d.default, true, 'default of the gathered section');
		eq(r.default, false, 'default of the new section');
		same(ids(d.siteSpaces), [ss.guide.id, ss.api.id, ss.extra.id], 'the root site spaces, gathered in order');
		for (const x of d.siteSpaces) eq(x.section, d.id, `section of site space ${x.id}`);
		eq(byId(d.siteSpaces, ss.api.id, 'default section').default, true, 'the site default site space stays default in the section');
		secD = d;

		const s = await structure(ctx, A.id);
		eq(s.type, 'sections', 'structure type');
		same(rootIds(s), [d.id, r.id], 'structure');
		for (const x of (await siteSpaces(ctx, A.id)).items) ok(x.section, `site space ${x.id} has a section`);
		eq((await site(ctx, A.id)).data.siteSpaces, 4, 'siteSpaces of the site');
	});

	t.step('addSpaceToSite without sectionId goes to the default section; with sectionId to that section', async (ctx) => {
		ctx.need(secR, 'the sections');
		const { data: x } = await ctx.call('addSpaceToSite', () => ctx.admin.orgs.addSpaceToSite(ctx.orgId, A.id, { spaceId: sp.changelog.id }), {
			status: 201,
		});
		eq(x.section, secD.id, 'section (the default one)');
		ss.changelog = x;
		const { data: y } = await ctx.call('addSpaceToSite', () =>
			ctx.admin.orgs.addSpaceToSite(ctx.orgId, A.id, { spaceId: sp.variant.id, sectionId: secR.id }),
		{ status: 201 });
		eq(y.section, secR.id, 'section (the given one)');
		eq(y.default, false, 'default of a second site space in a section');
		ss.variant = y;
		const list = await sections(ctx, A.id);
		same(ids(byId(list.items, secD.id, 'sections').siteSpaces), [ss.guide.id, ss.api.id, ss.extra.id, x.id], 'site spaces of the default section');
		same(ids(byId(list.items, secR.id, 'sections').siteSpaces), [ss.reference.id, y.id], 'site spaces of the other section');
	});

	t.step('updateSiteSpaceById spaceId points the site space at another space', async (ctx) => {
		ctx.need(ss.changelog, 'the site space');
		const { data: x } = await patchSiteSpace(ctx, ss.changelog.id, { spaceId: sp.other.id });
		eq(x.space.id, sp.other.id, 'space');
		eq(x.title, sp.other.title, 'title (the new space title)');
		eq(x.section, secD.id, 'section is unchanged');
	});

	t.step('updateSiteSectionById title, path, description, icon, condition; nulls remove', async (ctx) => {
		ctx.need(secR, 'the section');
		let { data: s } = await patchSection(ctx, secR.id, {
			title: 'API Reference',
			path: 'api',
			description: 'Every endpoint',
			icon: 'code',
			condition: 'visitor.claims.beta',
		});
		eq(s.title, 'API Reference', 'title');
		eq(s.path, 'api', 'path');
		eq(s.description, 'Every endpoint', 'description');
		eq(s.icon, 'code', 'icon');
		eq(s.condition, 'visitor.claims.beta', 'condition');
		({ data: s } = await patchSection(ctx, secR.id, { title: 'API reference' }));
		eq(s.condition, 'visitor.claims.beta', 'condition after a patch without it');
		eq(s.path, 'api', 'path after a patch without it');
		({ data: s } = await patchSection(ctx, secR.id, { condition: null, description: null, icon: null }));
		for (const k of ['condition', 'description', 'icon']) absent(s, k, `section after ${k}: null`);
		eq(s.title, 'API reference', 'title');
		const listed = byId((await sections(ctx, A.id)).items, secR.id, 'listSiteSections');
		eq(listed.title, 'API reference', 'title after a new list');
		eq(listed.path, 'api', 'path after a new list');
	});

	t.step('updateSiteSectionById defaultSiteSpace', async (ctx) => {
		ctx.need(ss.variant, 'the second site space of the section');
		const { data: s } = await patchSection(ctx, secR.id, { defaultSiteSpace: ss.variant.id });
		eq(byId(s.siteSpaces, ss.variant.id, 'section').default, true, 'default of the new default');
		eq(byId(s.siteSpaces, ss.reference.id, 'section').default, false, 'default of the former default');
	});

	t.step('updateSiteById defaultSiteSection', async (ctx) => {
		ctx.need(secR, 'the sections');
		await patchSite(ctx, A.id, { defaultSiteSection: secR.id });
		let list = (await sections(ctx, A.id)).items;
		eq(byId(list, secR.id, 'sections').default, true, 'default of the new default section');
		eq(byId(list, secD.id, 'sections').default, false, 'default of the former default section');
		await patchSite(ctx, A.id, { defaultSiteSection: secD.id });
		list = (await sections(ctx, A.id)).items;
		eq(byId(list, secD.id, 'sections').default, true, 'default section restored');
	});

	t.step('moveSiteSection (deprecated) before another section', async (ctx) => {
		ctx.need(secR, 'the sections');
		const { data: s } = await ctx.call('moveSiteSection', () =>
			ctx.admin.orgs.moveSiteSection(ctx.orgId, A.id, secR.id, { position: { before: { type: 'site-section', siteSection: secD.id } } }),
		{ status: 200 });
		eq(s.id, secR.id, 'id');
		same(ids((await sections(ctx, A.id)).items), [secR.id, secD.id], 'sections');
	});

	t.step('sortSiteStructure moves a section after another', async (ctx) => {
		ctx.need(secR, 'the sections');
		const { data: s } = await ctx.call('sortSiteStructure', () =>
			ctx.admin.orgs.sortSiteStructure(ctx.orgId, A.id, {
				item: { type: 'site-section', id: secR.id },
				position: { after: { type: 'site-section', id: secD.id } },
			}),
		{ status: 200 });
		eq(s.object, 'site-section', 'object of the moved item');
		same(rootIds(await structure(ctx, A.id)), [secD.id, secR.id], 'structure');
	});

	t.step('sortSiteStructure moves a site space into another section, and back', async (ctx) => {
		ctx.need(ss.variant, 'the site spaces of the sections');
		const sort = (id, position) =>
			ctx.call('sortSiteStructure', () => ctx.admin.orgs.sortSiteStructure(ctx.orgId, A.id, { item: { type: 'site-space', id }, position }), {
				status: 200,
			});
		const { data: x } = await sort(ss.variant.id, { before: { type: 'site-space', id: ss.guide.id } });
		eq(x.section, secD.id, 'section of the moved site space');
		let list = (await sections(ctx, A.id)).items;
		same(ids(byId(list, secD.id, 'sections').siteSpaces), [ss.variant.id, ss.guide.id, ss.api.id, ss.extra.id, ss.changelog.id], 'site spaces of the target');
		same(ids(byId(list, secR.id, 'sections').siteSpaces), [ss.reference.id], 'site spaces of the source');
		const { data: y } = await sort(ss.variant.id, { after: { type: 'site-space', id: ss.reference.id } });
		eq(y.section, secR.id, 'section after moving back');
		list = (await sections(ctx, A.id)).items;
		same(ids(byId(list, secR.id, 'sections').siteSpaces), [ss.reference.id, ss.variant.id], 'site spaces after moving back');
	});

	// --- section groups ------------------------------------------------------

	t.step('addSectionGroupToSite with a section', async (ctx) => {
		ctx.need(secR, 'the sections');
		const { data: g, headers } = await ctx.call('addSectionGroupToSite', () =>
			ctx.admin.orgs.addSectionGroupToSite(ctx.orgId, A.id, { title: 'More', icon: 'folder', sections: [secR.id] }),
		{ status: 201 });
		eq(g.object, 'site-section-group', 'object');
		eq(g.title, 'More', 'title');
		eq(g.icon, 'folder', 'icon');
		absent(g, 'sectionGroup', 'a group at the root');
		same(ids(g.children), [secR.id], 'children');
		same(ids(g.sections), [secR.id], 'sections (deprecated)');
		eq(g.children[0].sectionGroup, g.id, 'sectionGroup of the grouped section');
		ok(headers.get('location').endsWith(`/sites/${A.id}/section-groups/${g.id}`), `Location ${headers.get('location')}`);
		grp = g;
		const list = await groups(ctx, A.id);
		same(ids(list.items), [g.id], 'listSiteSectionGroups');
		const s = await structure(ctx, A.id);
		same(rootIds(s), [secD.id, g.id], 'structure');
		same(ids(s.structure[1].children), [secR.id], 'children of the group in the structure');
		eq(byId((await sections(ctx, A.id)).items, secR.id, 'sections').sectionGroup, g.id, 'sectionGroup in listSiteSections');
	});

	t.step('updateSiteSectionGroupById title and icon', async (ctx) => {
		ctx.need(grp, 'the group');
		const { data: g } = await ctx.call('updateSiteSectionGroupById', () =>
			ctx.admin.orgs.updateSiteSectionGroupById(ctx.orgId, A.id, grp.id, { title: 'More docs', icon: 'star' }),
		{ status: 200 });
		eq(g.title, 'More docs', 'title');
		eq(g.icon, 'star', 'icon');
		same(ids(g.children), [secR.id], 'children are unchanged');
		const listed = byId((await groups(ctx, A.id)).items, grp.id, 'groups');
		eq(listed.title, 'More docs', 'title after a new list');
	});

	t.step('removeSectionFromGroup answers 205, then 204', async (ctx) => {
		ctx.need(grp, 'the group');
		const rm = () => ctx.admin.orgs.removeSectionFromGroup(ctx.orgId, A.id, grp.id, secR.id);
		await ctx.call('removeSectionFromGroup', rm, { status: 205 });
		same(ids(byId((await groups(ctx, A.id)).items, grp.id, 'groups').children), [], 'children of the group');
		const s = await structure(ctx, A.id);
		same(rootIds(s), [secD.id, grp.id, secR.id], 'structure (the section moves to the root, at the end)');
		absent(s.structure[2], 'sectionGroup', 'the removed section');
		await ctx.call('removeSectionFromGroup', rm, { status: 204 });
	});

	t.step('addSectionToGroup puts the section back', async (ctx) => {
		ctx.need(grp, 'the group');
		const { data: g } = await ctx.call('addSectionToGroup', () => ctx.admin.orgs.addSectionToGroup(ctx.orgId, A.id, grp.id, { sectionId: secR.id }), {
			status: 201,
		});
		eq(g.id, grp.id, 'id');
		same(ids(g.children), [secR.id], 'children');
		same(rootIds(await structure(ctx, A.id)), [secD.id, grp.id], 'structure');
	});

	t.step('addSectionGroupToSite with a parent nests the group', async (ctx) => {
		ctx.need(grp, 'the group');
		const { data: g } = await ctx.call('addSectionGroupToSite', () =>
			ctx.admin.orgs.addSectionGroupToSite(ctx.orgId, A.id, { title: 'Inner', parent: grp.id }),
		{ status: 201 });
		eq(g.sectionGroup, grp.id, 'sectionGroup (the parent)');
		same(g.children, [], 'children of a new empty group');
		inner = g;
		const outer = byId((await groups(ctx, A.id)).items, grp.id, 'groups');
		same(ids(outer.children), [secR.id, g.id], 'children of the parent');
		eq(outer.children[1].object, 'site-section-group', 'object of the nested child');
	});

	t.step('moveSiteSectionGroup (deprecated) before a section', async (ctx) => {
		ctx.need(grp, 'the group');
		const { data: g } = await ctx.call('moveSiteSectionGroup', () =>
			ctx.admin.orgs.moveSiteSectionGroup(ctx.orgId, A.id, grp.id, { position: { before: { type: 'site-section', id: secD.id } } }),
		{ status: 200 });
		eq(g.id, grp.id, 'id');
		same(rootIds(await structure(ctx, A.id)), [grp.id, secD.id], 'structure');
	});

	t.step('sortSiteStructure moves a group after a section', async (ctx) => {
		ctx.need(grp, 'the group');
		const { data: g } = await ctx.call('sortSiteStructure', () =>
			ctx.admin.orgs.sortSiteStructure(ctx.orgId, A.id, {
				item: { type: 'site-section-group', id: grp.id },
				position: { after: { type: 'site-section', id: secD.id } },
			}),
		{ status: 200 });
		eq(g.object, 'site-section-group', 'object of the moved item');
		same(rootIds(await structure(ctx, A.id)), [secD.id, grp.id], 'structure');
	});

	t.step('sortSiteStructure and the moves: 400 and 404 where the reference lists them', async (ctx) => {
		ctx.need(inner, 'the nested group');
		const sort = (body) => () => ctx.admin.orgs.sortSiteStructure(ctx.orgId, A.id, body);
		const before = await structure(ctx, A.id);
		// a site space next to a section
		await ctx.fails('sortSiteStructure', sort({ item: { type: 'site-space', id: ss.guide.id }, position: { before: { type: 'site-section', id: secD.id } } }), 400);
		// a group inside itself (next to its own child)
		await ctx.fails('sortSiteStructure', sort({ item: { type: 'site-section-group', id: grp.id }, position: { after: { type: 'site-section-group', id: inner.id } } }), 400);
		// an item that does not exist
		await ctx.fails('sortSiteStructure', sort({ item: { type: 'site-section', id: 'no-such-section' }, position: { before: { type: 'site-section', id: secD.id } } }), 404);
		await ctx.fails('moveSiteSection', () =>
			ctx.admin.orgs.moveSiteSection(ctx.orgId, A.id, 'no-such-section', { position: { before: { type: 'site-section', siteSection: secD.id } } }),
		404);
		await ctx.fails('moveSiteSpace', () =>
			ctx.admin.orgs.moveSiteSpace(ctx.orgId, A.id, 'no-such-site-space', { position: { before: { type: 'site-space', siteSpace: ss.guide.id } } }),
		404);
		await ctx.fails('getSiteStructure', () => ctx.admin.orgs.getSiteStructure(ctx.orgId, 'no-such-site'), 404);
		same(await structure(ctx, A.id), before, 'structure after the refused moves');
	});

	// --- adaptive schema -----------------------------------------------------

	const adaptiveSchema = {
		type: 'object',
		properties: {
			unsigned: {
				type: 'object',
				description: 'Unsigned claims of the site visitor.',
				properties: { beta: { type: 'boolean', description: 'Beta tester' } },
				additionalProperties: false,
			},
			plan: { type: 'string', enum: ['pro', 'free'], description: 'Plan of the visitor' },
		},
		additionalProperties: false,
	};

	t.step('getSiteAdaptiveSchema before one is set: 404; listSiteAdaptiveTemplateConditions: no items', async (ctx) => {
		ctx.need(A, 'the site');
		await ctx.fails('getSiteAdaptiveSchema', () => ctx.admin.orgs.getSiteAdaptiveSchema(ctx.orgId, A.id), 404);
		const { data } = await ctx.call('listSiteAdaptiveTemplateConditions', () => ctx.admin.orgs.listSiteAdaptiveTemplateConditions(ctx.orgId, A.id), {
			status: 200,
		});
		same(data.items, [], 'items without a schema');
	});

	t.step('updateSiteAdaptiveSchema with an invalid schema: 400', async (ctx) => {
		ctx.need(A, 'the site');
		await ctx.fails('updateSiteAdaptiveSchema', () =>
			ctx.admin.orgs.updateSiteAdaptiveSchema(ctx.orgId, A.id, { jsonSchema: { type: 'array', properties: {}, additionalProperties: false } }),
		400);
		await ctx.fails('getSiteAdaptiveSchema', () => ctx.admin.orgs.getSiteAdaptiveSchema(ctx.orgId, A.id), 404);
	});

	t.step('updateSiteAdaptiveSchema, then getSiteAdaptiveSchema', async (ctx) => {
		ctx.need(A, 'the site');
		const { data: put } = await ctx.call('updateSiteAdaptiveSchema', () =>
			ctx.admin.orgs.updateSiteAdaptiveSchema(ctx.orgId, A.id, { jsonSchema: adaptiveSchema }),
		{ status: 200 });
		eq(put.object, 'site-adaptive-schema', 'object');
		same(put.jsonSchema, adaptiveSchema, 'jsonSchema');
		const { data: got } = await ctx.call('getSiteAdaptiveSchema', () => ctx.admin.orgs.getSiteAdaptiveSchema(ctx.orgId, A.id), { status: 200 });
		same(got.jsonSchema, adaptiveSchema, 'jsonSchema after a new GET');
		eq(got.updatedAt, put.updatedAt, 'updatedAt after a new GET');
	});

	t.step('listSiteAdaptiveTemplateConditions: one per claim, each usable as a section condition', async (ctx) => {
		ctx.need(secR, 'the section');
		const { data } = await ctx.call('listSiteAdaptiveTemplateConditions', () => ctx.admin.orgs.listSiteAdaptiveTemplateConditions(ctx.orgId, A.id), {
			status: 200,
		});
		eq(data.items.length, 2, `items (claims unsigned.beta and plan): ${JSON.stringify(data.items)}`);
		ok(data.items[0].condition.includes('beta'), `the first condition is about beta: ${data.items[0].condition}`);
		ok(data.items[1].condition.includes('plan'), `the second condition is about plan: ${data.items[1].condition}`);
		eq(data.items[0].description, 'Beta tester', 'description (the claim description)');
		for (const { condition } of data.items) {
			const { data: s } = await patchSection(ctx, secR.id, { condition });
			eq(s.condition, condition, 'condition set from a template');
		}
		absent((await patchSection(ctx, secR.id, { condition: null })).data, 'condition', 'section after condition: null');
	});

	// --- published profile ---------------------------------------------------

	t.step('getPublishedContentSite: site, structure, customizations, scripts', async (ctx) => {
		ctx.need(settings, 'the site customization');
		ctx.need(grp, 'the group');
		await override(ctx, ss.api.id, { styling: { theme: 'gradient' } });
		const { data: p } = await ctx.call('getPublishedContentSite', () => ctx.admin.orgs.getPublishedContentSite(ctx.orgId, A.id), { status: 200 });
		eq(p.object, 'published-content-site', 'object');
		eq(p.site.id, A.id, 'site.id');
		eq(p.site.published, true, 'site.published');
		ok(typeof p.site.urls.published === 'string', 'site.urls.published');
		same(p.structure, await structure(ctx, A.id), 'structure (as getSiteStructure)');
		same(p.customizations.site, settings, 'customizations.site');
		const all = ids((await siteSpaces(ctx, A.id)).items);
		same(Object.keys(p.customizations.siteSpaces).sort(), [...all].sort(), 'customizations.siteSpaces keys (every site space)');
		eq(p.customizations.siteSpaces[ss.api.id].styling.theme, 'gradient', 'theme of the overridden site space');
		same(p.customizations.siteSpaces[ss.guide.id], settings, 'settings of a site space without overrides');
		same(p.scripts, [], 'scripts');
		await ctx.call('deleteSiteSpaceCustomizationById', () => ctx.admin.orgs.deleteSiteSpaceCustomizationById(ctx.orgId, A.id, ss.api.id), {
			status: 205,
		});
	});

	// --- deletes inside the structure -----------------------------------------

	t.step('deleteSiteSectionGroupById: children move up to the root; 205, then 204', async (ctx) => {
		ctx.need(inner, 'the nested group');
		const del = () => ctx.admin.orgs.deleteSiteSectionGroupById(ctx.orgId, A.id, grp.id);
		await ctx.call('deleteSiteSectionGroupById', del, { status: 205 });
		const s = await structure(ctx, A.id);
		same(rootIds(s), [secD.id, secR.id, inner.id], 'structure (the children of the group, in order, at the end of the root)');
		absent(s.structure[1], 'sectionGroup', 'a section moved to the root');
		absent(s.structure[2], 'sectionGroup', 'a group moved to the root');
		same(ids((await groups(ctx, A.id)).items), [inner.id], 'listSiteSectionGroups');
		await ctx.call('deleteSiteSectionGroupById', del, { status: 204 });
		await ctx.call('deleteSiteSectionGroupById', () => ctx.admin.orgs.deleteSiteSectionGroupById(ctx.orgId, A.id, inner.id), { status: 205 });
		same(rootIds(await structure(ctx, A.id)), [secD.id, secR.id], 'structure');
	});

	t.step('deleteSiteSpaceById: 205, then 204', async (ctx) => {
		ctx.need(ss.changelog, 'the site space');
		const del = () => ctx.admin.orgs.deleteSiteSpaceById(ctx.orgId, A.id, ss.changelog.id);
		await ctx.call('deleteSiteSpaceById', del, { status: 205 });
		lacks((await siteSpaces(ctx, A.id)).items, ss.changelog.id, 'site spaces');
		await ctx.call('deleteSiteSpaceById', del, { status: 204 });
		await ctx.call('getSpaceById', () => ctx.admin.spaces.getSpaceById(sp.other.id), { status: 200 });
	});

	t.step('deleteSiteSectionById removes its site spaces; 205, then 204', async (ctx) => {
		ctx.need(secR, 'the section');
		const del = () => ctx.admin.orgs.deleteSiteSectionById(ctx.orgId, A.id, secR.id);
		await ctx.call('deleteSiteSectionById', del, { status: 205 });
		same(ids((await sections(ctx, A.id)).items), [secD.id], 'sections');
		const left = (await siteSpaces(ctx, A.id)).items;
		lacks(left, ss.reference.id, 'site spaces');
		lacks(left, ss.variant.id, 'site spaces');
		eq((await site(ctx, A.id)).data.siteSpaces, left.length, 'siteSpaces of the site');
		await ctx.call('deleteSiteSectionById', del, { status: 204 });
	});

	// --- share links ---------------------------------------------------------

	t.step('createSiteShareLink on a share-link site', async (ctx) => {
		ctx.need(B, 'the second site');
		const { data: s } = await patchSite(ctx, B.id, { visibility: 'share-link' });
		eq(s.visibility, 'share-link', 'visibility');
		await ctx.call('addSpaceToSite', () => ctx.admin.orgs.addSpaceToSite(ctx.orgId, B.id, { spaceId: sp.guide.id }), { status: 201 });
		await ctx.call('publishSite', () => ctx.admin.orgs.publishSite(ctx.orgId, B.id), { status: 200 });
		const { data: before } = await ctx.call('listSiteShareLinks', () => ctx.admin.orgs.listSiteShareLinks(ctx.orgId, B.id), { status: 200 });
		same(before.items, [], 'share links of a new site');
		const { data: l, headers } = await ctx.call('createSiteShareLink', () => ctx.admin.orgs.createSiteShareLink(ctx.orgId, B.id, { name: 'Partners' }), {
			status: 201,
		});
		eq(l.object, 'share-link', 'object');
		eq(l.name, 'Partners', 'name');
		eq(l.active, true, 'active');
		ok(typeof l.urls.published === 'string', 'urls.published');
		ok(headers.get('location').endsWith(`/sites/${B.id}/share-links/${l.id}`), `Location ${headers.get('location')}`);
		// The reference has no key field on ShareLink; the key is the secret
		// part of its published URL.
		const m = /\/~share\/([^/?#]+)/.exec(l.urls.published);
		ok(m, `no share key in urls.published ${l.urls.published}`);
		link = l;
		key = m[1];
		const { data: after } = await ctx.call('listSiteShareLinks', () => ctx.admin.orgs.listSiteShareLinks(ctx.orgId, B.id), { status: 200 });
		same(ids(after.items), [l.id], 'listSiteShareLinks');
	});

	t.step('shareKey: without it no published URLs; with it URLs carry the key; a wrong key is 404', async (ctx) => {
		ctx.need(key, 'the share key');
		const { data: plain } = await ctx.call('getPublishedContentSite', () => ctx.admin.orgs.getPublishedContentSite(ctx.orgId, B.id), { status: 200 });
		absent(plain.site.urls, 'published', 'site.urls without a share key');
		const { data: keyed } = await ctx.call('getPublishedContentSite', () => ctx.admin.orgs.getPublishedContentSite(ctx.orgId, B.id, { shareKey: key }), {
			status: 200,
		});
		ok(keyed.site.urls.published?.includes(key), `site.urls.published ${keyed.site.urls.published} carries the key`);
		eq(keyed.site.urls.published, link.urls.published, 'site.urls.published is the share link URL');
		const s = await structure(ctx, B.id, { shareKey: key });
		ok(s.structure[0].urls.published?.includes(key), 'structure site space urls.published carries the key');
		absent((await structure(ctx, B.id)).structure[0].urls, 'published', 'structure site space urls without a key');
		const listed = await siteSpaces(ctx, B.id, { shareKey: key });
		ok(listed.items[0].urls.published?.includes(key), 'listSiteSpaces urls.published carries the key');
		await ctx.call('listSiteSections', () => ctx.admin.orgs.listSiteSections(ctx.orgId, B.id, { shareKey: key }), { status: 200 });
		await ctx.fails('getPublishedContentSite', () => ctx.admin.orgs.getPublishedContentSite(ctx.orgId, B.id, { shareKey: 'not-the-key' }), 404);
		await ctx.fails('getSiteStructure', () => ctx.admin.orgs.getSiteStructure(ctx.orgId, B.id, { shareKey: 'not-the-key' }), 404);
	});

	t.step('updateSiteShareLinkById name and active; an inactive key is 404', async (ctx) => {
		ctx.need(key, 'the share key');
		const patch = (body) =>
			ctx.call('updateSiteShareLinkById', () => ctx.admin.orgs.updateSiteShareLinkById(ctx.orgId, B.id, link.id, body), { status: 200 });
		let { data: l } = await patch({ name: 'Partners 2025' });
		eq(l.name, 'Partners 2025', 'name');
		eq(l.active, true, 'active is unchanged');
		({ data: l } = await patch({ active: false }));
		eq(l.active, false, 'active');
		eq(l.name, 'Partners 2025', 'name is unchanged');
		await ctx.fails('getPublishedContentSite', () => ctx.admin.orgs.getPublishedContentSite(ctx.orgId, B.id, { shareKey: key }), 404);
		({ data: l } = await patch({ active: true }));
		eq(l.active, true, 'active again');
		const listed = byId((await ctx.call('listSiteShareLinks', () => ctx.admin.orgs.listSiteShareLinks(ctx.orgId, B.id))).data.items, link.id, 'links');
		eq(listed.name, 'Partners 2025', 'name after a new list');
	});

	t.step('deleteSiteShareLinkById: 205, then 204; the key no longer works', async (ctx) => {
		ctx.need(key, 'the share key');
		const del = () => ctx.admin.orgs.deleteSiteShareLinkById(ctx.orgId, B.id, link.id);
		await ctx.call('deleteSiteShareLinkById', del, { status: 205 });
		const { data } = await ctx.call('listSiteShareLinks', () => ctx.admin.orgs.listSiteShareLinks(ctx.orgId, B.id), { status: 200 });
		lacks(data.items, link.id, 'share links');
		await ctx.fails('getPublishedContentSite', () => ctx.admin.orgs.getPublishedContentSite(ctx.orgId, B.id, { shareKey: key }), 404);
		await ctx.call('deleteSiteShareLinkById', del, { status: 204 });
	});

	// --- access ----------------------------------------------------------------

	t.step('the reader lists and reads sites but cannot change them or see share links', async (ctx) => {
		ctx.need(A, 'the site');
		const { data } = await ctx.call('listSites', () => ctx.reader.orgs.listSites(ctx.orgId), { status: 200 });
		has(data.items, A.id, 'sites listed for the reader');
		await ctx.call('getSiteById', () => ctx.reader.orgs.getSiteById(ctx.orgId, A.id), { status: 200 });
		await ctx.fails('createSite', () => ctx.reader.orgs.createSite(ctx.orgId, { title: 'Nope' }), 403);
		await ctx.fails('updateSiteById', () => ctx.reader.orgs.updateSiteById(ctx.orgId, A.id, { title: 'Nope' }), 403);
		await ctx.fails('listSiteShareLinks', () => ctx.reader.orgs.listSiteShareLinks(ctx.orgId, A.id), 403);
		eq((await site(ctx, A.id)).data.title, 'Interop Handbook', 'title is unchanged');
	});

	// --- deleting sites ----------------------------------------------------------

	t.step('deleteSiteById: 205, then 404 on get, 204 on a second delete; the spaces stay', async (ctx) => {
		ctx.need(A, 'the site');
		const del = () => ctx.admin.orgs.deleteSiteById(ctx.orgId, A.id);
		await ctx.call('deleteSiteById', del, { status: 205 });
		await ctx.fails('getSiteById', () => ctx.admin.orgs.getSiteById(ctx.orgId, A.id), 404);
		lacks((await listSites(ctx)).data.items, A.id, 'sites');
		await ctx.call('deleteSiteById', del, { status: 204 });
		await ctx.call('getSpaceById', () => ctx.admin.spaces.getSpaceById(sp.guide.id), { status: 200 });
		for (const x of [B, C]) if (x) await ctx.call('deleteSiteById', () => ctx.admin.orgs.deleteSiteById(ctx.orgId, x.id), { status: 205 });
	});
}
