// Browser, accessibility and quality test of sites published by the reader
// door (/s/{org}/{site}/...), against a real quire server.
//
//   cd web/reader && npm ci && npm test
//
// Builds ./cmd/quire (or uses $QUIRE_BIN), bootstraps a throwaway SQLite
// database, starts `quire serve` on a free loopback port with that address
// as its public URL, seeds a public site (two sections, one with two
// variants, a space of nested pages with every kind of block) and a
// share-link site through the API, then drives Debian's Chromium
// ($CHROMIUM, default /usr/bin/chromium): reader flows with playwright-core
// (reader.mjs); axe-core, Lighthouse, linkinator, robots.txt, the sitemap
// and llms.txt (quality.mjs).
// Screenshots and the Lighthouse report go to test-artifacts/.
// Bounded in time; the server and the browser are stopped in every case.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { readerFlows } from './reader.mjs';
import { accessibility, lighthouseScores, brokenLinks } from './quality.mjs';
import { seed } from './seed.mjs';
import { check, log, results } from './util.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..', '..', '..');
const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';
const artifacts = join(repo, 'test-artifacts');
const BUILD_TIMEOUT_MS = 10 * 60 * 1000;
const TEST_TIMEOUT_MS = 5 * 60 * 1000;

const tmp = mkdtempSync(join(tmpdir(), 'quire-reader-'));
let server = null;
let browser = null;

function alive(p) {
  return p && p.exitCode === null && p.signalCode === null;
}

function stopServer() {
  if (alive(server)) server.kill('SIGKILL');
}

async function cleanup() {
  if (browser) {
    await Promise.race([browser.close().catch(() => {}), new Promise((r) => setTimeout(r, 5000))]);
    browser = null;
  }
  if (alive(server)) {
    server.kill('SIGTERM');
    const exited = await Promise.race([
      new Promise((r) => server.once('exit', () => r(true))),
      new Promise((r) => setTimeout(() => r(false), 5000)),
    ]);
    if (!exited) stopServer();
  }
  rmSync(tmp, { recursive: true, force: true });
}

// Whatever happens, no server is left running.
process.on('exit', stopServer);
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => {
    stopServer();
    rmSync(tmp, { recursive: true, force: true });
    process.exit(130);
  });
}

function freePort() {
  return new Promise((res, rej) => {
    const s = createServer();
    s.unref();
    s.on('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
  });
}

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: BUILD_TIMEOUT_MS, ...opts });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

async function waitHealthy(base, deadline) {
  for (;;) {
    try {
      const res = await fetch(`${base}/healthz`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    if (!alive(server)) throw new Error(`quire serve exited ${server.exitCode}`);
    if (Date.now() > deadline) throw new Error('quire serve did not become healthy');
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function main() {
  if (!existsSync(chromiumPath)) throw new Error(`${chromiumPath} not found (apt-get install -y chromium)`);
  mkdirSync(artifacts, { recursive: true });

  // $QUIRE_BIN (a path from the repository's root, as make passes it):
  // a binary built once for several checks (CI does).
  let bin = process.env.QUIRE_BIN ? resolve(repo, process.env.QUIRE_BIN) : '';
  if (bin) {
    if (!existsSync(bin)) throw new Error(`QUIRE_BIN ${bin} not found`);
    log(`using ${bin}`);
  } else {
    bin = join(tmp, 'quire');
    log('building ./cmd/quire');
    run('go', ['build', '-o', bin, './cmd/quire'], { cwd: repo });
  }
  // The build has its own bound; the five minutes start here.
  armTimer();
  const dbURL = `sqlite:${join(tmp, 'q.db')}`;
  run(bin, ['migrate', '--database-url', dbURL]);
  const boot = JSON.parse(run(bin, ['admin', 'bootstrap', '--database-url', dbURL, '--org', 'Acme', '--email', 'editor@example.com']));
  if (!boot.token) throw new Error('bootstrap printed no token');

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let serverLog = '';
  // Rate limits off: Lighthouse and linkinator fetch many pages anonymously.
  server = spawn(
    bin,
    ['serve', '--addr', `127.0.0.1:${port}`, '--public-url', base, '--database-url', dbURL, '--rate-limit', '0', '--rate-limit-anonymous', '0', '--rate-limit-content', '0'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  server.stdout.on('data', (d) => (serverLog = (serverLog + d).slice(-20000)));
  server.stderr.on('data', (d) => (serverLog = (serverLog + d).slice(-20000)));
  try {
    await waitHealthy(base, Date.now() + 30000);
    log(`quire serve on ${base}`);
    const seeded = await seed(base, boot.token, boot.organization.id);
    log(`public site ${seeded.site}, share link ${seeded.shareURL}`);
    check('the public site is under /s/{org}/', seeded.site.startsWith(`${base}/s/${boot.organization.id}/`), seeded.site);

    browser = await chromium.launch({
      executablePath: chromiumPath,
      headless: true,
      timeout: 30000,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    const env = { base, browser, artifacts, ...seeded };
    await readerFlows(env);
    await accessibility(env);
    await lighthouseScores(env, chromiumPath);
    await brokenLinks(env);
  } catch (err) {
    log(`server log (tail):\n${serverLog.slice(-3000)}`);
    throw err;
  }
}

let timer = null;
function armTimer() {
  timer = setTimeout(() => {
    log(`timed out after ${TEST_TIMEOUT_MS / 1000}s`);
    stopServer();
    process.exit(1);
  }, TEST_TIMEOUT_MS);
}

try {
  await main();
} catch (err) {
  results.failed++;
  log(`error: ${err && err.stack ? err.stack : err}`);
} finally {
  await cleanup();
  clearTimeout(timer);
}
console.log(`${results.passed} passed, ${results.failed} failed`);
process.exit(results.failed > 0 ? 1 : 0);
