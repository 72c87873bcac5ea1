// Git sync: importGitRepository, exportToGitRepository, getSpaceGitInfo and
// deleteLegacyGitInstallation, through the client's own methods.
//
// The server (interop/run.sh) allows file:// repositories below
// QUIRE_GIT_DIR; this area writes a bare repository there by hand (loose
// objects, as Git stores them), imports it, exports the space to a second,
// empty repository and imports that back into another space. The jobs that
// do the work are followed through GraphQL (Space.gitSyncJob).
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { absent, eq, ok } from '../lib/assert.mjs';

const TOKEN = process.env.QUIRE_TOKEN;
const GIT_DIR = process.env.QUIRE_GIT_DIR;

// A bare repository with no commits.
function bareRepo(dir) {
	for (const d of ['objects', 'refs/heads', 'refs/tags']) mkdirSync(join(dir, d), { recursive: true });
	writeFileSync(join(dir, 'HEAD'), 'ref: refs/heads/main\n');
	writeFileSync(join(dir, 'config'), '[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = true\n');
}

function writeObject(dir, type, body) {
	const raw = Buffer.concat([Buffer.from(`${type} ${body.length}\0`), body]);
	const sha = createHash('sha1').update(raw).digest('hex');
	mkdirSync(join(dir, 'objects', sha.slice(0, 2)), { recursive: true });
	writeFileSync(join(dir, 'objects', sha.slice(0, 2), sha.slice(2)), deflateSync(raw));
	return sha;
}

// Writes the tree of files (path → string) and returns its id.
function writeTree(dir, files) {
	const entries = new Map();
	const subdirs = new Map();
	for (const [path, text] of Object.entries(files)) {
		const i = path.indexOf('/');
		if (i < 0) {
			entries.set(path, { mode: '100644', sha: writeObject(dir, 'blob', Buffer.from(text)), key: path });
		} else {
			const name = path.slice(0, i);
			if (!subdirs.has(name)) subdirs.set(name, {});
			subdirs.get(name)[path.slice(i + 1)] = text;
		}
	}
	for (const [name, sub] of subdirs) entries.set(name, { mode: '40000', sha: writeTree(dir, sub), key: `${name}/` });
	const sorted = [...entries].sort(([, a], [, b]) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
	const body = Buffer.concat(sorted.map(([name, e]) => Buffer.concat([Buffer.from(`${e.mode} ${name}\0`), Buffer.from(e.sha, 'hex')])));
	return writeObject(dir, 'tree', body);
}

// Commits files on main and returns the commit's id.
function commit(dir, files, message) {
	const when = `${Math.floor(Date.now() / 1000)} +0000`;
	const who = `Interop Writer <writer@example.com> ${when}`;
	const body = `tree ${writeTree(dir, files)}\nauthor ${who}\ncommitter ${who}\n\n${message}\n`;
	const sha = writeObject(dir, 'commit', Buffer.from(body));
	writeFileSync(join(dir, 'refs/heads/main'), `${sha}\n`);
	return sha;
}

async function graphql(url, query, variables) {
	const res = await fetch(`${url}/graphql`, {
		method: 'POST',
		headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${TOKEN}` },
		body: JSON.stringify({ query, variables }),
		signal: AbortSignal.timeout(15_000),
	});
	const body = await res.json();
	if (body.errors?.length) throw new Error(`GraphQL: ${JSON.stringify(body.errors)}`);
	return body.data;
}

const JOB = 'query($id: ID!) { space(id: $id) { gitSyncJob { id kind state step errors { message } } } }';

// The id of the space's latest Git job (null when none).
async function latestJob(url, space) {
	return (await graphql(url, JOB, { id: space })).space.gitSyncJob?.id ?? null;
}

// Waits for a Git job of the space other than `before` to finish.
async function waitJob(url, space, before) {
	const deadline = Date.now() + 20_000;
	for (;;) {
		const job = (await graphql(url, JOB, { id: space })).space.gitSyncJob;
		if (job && job.id !== before && ['completed', 'failed', 'cancelled'].includes(job.state)) return job;
		if (Date.now() > deadline) throw new Error(`the Git job of ${space} did not finish: ${JSON.stringify(job)}`);
		await new Promise((r) => setTimeout(r, 100));
	}
}

const paths = (pages, out = []) => {
	for (const p of pages) {
		out.push(`${p.path ?? ''}|${p.title}|${p.type}`);
		paths(p.pages ?? [], out);
	}
	return out;
};

export default function gitArea(t) {
	let space; // imported from the source repository
	let copy; // imported from the export
	let source; // the source repository's directory
	let head; // its commit
	let imported; // the space's pages after the import

	t.step('getSpaceGitInfo is 404 before any sync', async ({ admin, call, fails, orgId, need }) => {
		need(GIT_DIR, 'QUIRE_GIT_DIR (interop/run.sh)');
		({ data: space } = await call('createSpace', () => admin.orgs.createSpace(orgId, { title: 'Interop Git' }), { status: 201 }));
		await fails('getSpaceGitInfo', () => admin.spaces.getSpaceGitInfo(space.id), 404);
	});

	t.step('importGitRepository imports a local repository', async ({ admin, call, need, url }) => {
		need(space, 'the space');
		source = join(GIT_DIR, 'source.git');
		bareRepo(source);
		head = commit(
			source,
			{
				'README.md': '# Welcome\n\nRead the [guide](guide/README.md) and [setup](guide/setup.md#run).\n',
				'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Guide](guide/README.md)\n  * [Setup](guide/setup.md)\n\n## Reference\n\n* [Terms](reference/terms.md)\n',
				'guide/README.md': '# Guide\n\nStart here.\n',
				'guide/setup.md': '# Setup\n\n## Run\n\nRun it. See the [notes](../.gitbook/assets/notes.txt).\n',
				'reference/terms.md': '---\ndescription: Words we use.\n---\n\n# Terms\n\nA glossary.\n',
				'.gitbook/assets/notes.txt': 'plain notes\n',
			},
			'Docs from interop',
		);
		const before = await latestJob(url, space.id);
		const { status } = await call(
			'importGitRepository',
			() => admin.spaces.importGitRepository(space.id, { url: `file://${source}`, ref: 'refs/heads/main', timestamp: new Date().toISOString() }),
			{ status: 204 },
		);
		eq(status, 204, 'status');
		const job = await waitJob(url, space.id, before);
		eq(job.kind, 'git.import', 'job kind');
		eq(job.state, 'completed', `job state (${job.step} ${JSON.stringify(job.errors)})`);
	});

	t.step('the imported content carries its Git metadata', async ({ admin, call, need }) => {
		need(head, 'the import');
		const { data: rev } = await call('getCurrentRevision', () => admin.spaces.getCurrentRevision(space.id, {}), { status: 200 });
		imported = paths(rev.pages);
		eq(imported.join(' '), 'welcome|Welcome|document guide|Guide|document guide/setup|Setup|document reference|Reference|group reference/terms|Terms|document', 'pages');
		eq(rev.git?.oid, head, 'revision git.oid');
		eq(rev.git?.createdByService, false, 'revision git.createdByService');
		eq(rev.git?.message, 'Docs from interop\n', 'revision git.message');
		eq(rev.pages[1].pages[0].git?.path, 'guide/setup.md', 'page git.path');
		eq(rev.files.length, 1, 'files');
		eq(rev.files[0].git?.path, '.gitbook/assets/notes.txt', 'file git.path');
		const { data: plain } = await call('getCurrentRevision', () => admin.spaces.getCurrentRevision(space.id, { metadata: false }), { status: 200 });
		absent(plain, 'git', 'metadata=false');
	});

	t.step('getSpaceGitInfo and the space show the Git provider', async ({ admin, reader, call, need }) => {
		need(imported, 'the import');
		const { data: info } = await call('getSpaceGitInfo', () => reader.spaces.getSpaceGitInfo(space.id), { status: 200 });
		eq(info.repoName, 'source', 'repoName');
		eq(info.integration, 'git', 'integration');
		eq(info.url, `file://${source}`, 'url');
		ok(info.updatedAt, 'updatedAt');
		const { data: sp } = await call('getSpaceById', () => admin.spaces.getSpaceById(space.id), { status: 200 });
		eq(JSON.stringify(sp.gitSync), JSON.stringify(info), 'space gitSync');
	});

	t.step('exportToGitRepository exports, and importing the export gives the same pages', async ({ admin, call, need, orgId, url }) => {
		need(imported, 'the import');
		const out = join(GIT_DIR, 'export.git');
		bareRepo(out);
		let before = await latestJob(url, space.id);
		await call(
			'exportToGitRepository',
			() => admin.spaces.exportToGitRepository(space.id, { url: `file://${out}`, ref: 'refs/heads/main', commitMessage: 'Export from Quire' }),
			{ status: 204 },
		);
		let job = await waitJob(url, space.id, before);
		eq(job.state, 'completed', `export job (${job.step} ${JSON.stringify(job.errors)})`);
		ok(job.step.startsWith('Exported commit '), `export step: ${job.step}`);

		({ data: copy } = await call('createSpace', () => admin.orgs.createSpace(orgId, { title: 'Interop Git copy' }), { status: 201 }));
		before = await latestJob(url, copy.id);
		await call('importGitRepository', () => admin.spaces.importGitRepository(copy.id, { url: `file://${out}`, ref: 'refs/heads/main' }), {
			status: 204,
		});
		job = await waitJob(url, copy.id, before);
		eq(job.state, 'completed', `import of the export (${job.step} ${JSON.stringify(job.errors)})`);
		const { data: rev } = await call('getCurrentRevision', () => admin.spaces.getCurrentRevision(copy.id, {}), { status: 200 });
		eq(paths(rev.pages).join(' '), imported.join(' '), 'pages of the copy');
		eq(rev.git?.createdByService, true, 'an export of Quire is createdByService');
	});

	t.step('importGitRepository refuses a bad URL, and a reader', async ({ admin, reader, fails, need }) => {
		need(space, 'the space');
		const { body } = await fails(
			'importGitRepository',
			() => admin.spaces.importGitRepository(space.id, { url: 'ssh://git@example.com/docs.git', ref: 'refs/heads/main' }),
			400,
		);
		ok(body.error.message.startsWith('url must be an http or https URL'), body.error.message);
		await fails('importGitRepository', () => admin.spaces.importGitRepository(space.id, { url: 'https://example.com/docs.git', ref: 'main' }), 400);
		await fails('importGitRepository', () => reader.spaces.importGitRepository(space.id, { url: 'https://example.com/docs.git', ref: 'refs/heads/main' }), 403);
		await fails('exportToGitRepository', () => admin.spaces.exportToGitRepository(space.id, { url: 'https://example.com/docs.git', ref: 'refs/heads/main', commitMessage: '' }), 400);
	});

	t.step('deleteLegacyGitInstallation removes the provider once', async ({ admin, call, fails, need }) => {
		need(imported, 'the import');
		await call('deleteLegacyGitInstallation', () => admin.spaces.deleteLegacyGitInstallation(space.id), { status: 205 });
		await call('deleteLegacyGitInstallation', () => admin.spaces.deleteLegacyGitInstallation(space.id), { status: 204 });
		await fails('getSpaceGitInfo', () => admin.spaces.getSpaceGitInfo(space.id), 404);
		const { data: sp } = await call('getSpaceById', () => admin.spaces.getSpaceById(space.id), { status: 200 });
		absent(sp, 'gitSync', 'space gitSync');
	});
}
