// Browser test for GraphiQL at GET /graphql, against a real quire server.
//
//   cd web/graphiql && npm ci && npm test
//
// Builds ./cmd/quire (or uses $QUIRE_BIN), bootstraps a throwaway SQLite
// database, starts `quire serve` on a free loopback port, then drives Debian's
// Chromium ($CHROMIUM, default /usr/bin/chromium) with playwright-core: types
// the token into #quire-token, types a query into the editor, runs it and
// checks the result, the docs explorer, the history; then runs a
// subscription over the WebSocket, causes events through the REST API and
// sees them in the result panel; and checks that the page never asked
// anything of another origin. Screenshots: test-artifacts/graphiql.png,
// test-artifacts/graphiql-subscription.png.
// Bounded in time; the server and the browser are stopped in every case.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '..', '..', '..');
const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';
const artifacts = join(repo, 'test-artifacts');
const screenshot = join(artifacts, 'graphiql.png');
const subscriptionShot = join(artifacts, 'graphiql-subscription.png');
const BUILD_TIMEOUT_MS = 10 * 60 * 1000;
const TEST_TIMEOUT_MS = 3 * 60 * 1000;

const tmp = mkdtempSync(join(tmpdir(), 'quire-graphiql-'));
let server = null;
let context = null;
let passed = 0;
let failed = 0;

function log(...args) {
  console.log('[browser-test]', ...args);
}

function check(name, ok, detail = '') {
  if (ok) {
    passed++;
    log(`ok   ${name}`);
  } else {
    failed++;
    log(`FAIL ${name}${detail ? `: ${detail}` : ''}`);
  }
  return ok;
}

function stopServer() {
  if (server && server.exitCode === null && server.signalCode === null) {
    server.kill('SIGKILL');
  }
}

async function cleanup() {
  if (context) {
    await Promise.race([context.close().catch(() => {}), new Promise((r) => setTimeout(r, 5000))]);
    context = null;
  }
  if (server && server.exitCode === null && server.signalCode === null) {
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
    if (server.exitCode !== null) throw new Error(`quire serve exited ${server.exitCode}`);
    if (Date.now() > deadline) throw new Error('quire serve did not become healthy');
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function editorText(page, selector) {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel);
    if (!el) return null;
    return el.CodeMirror ? el.CodeMirror.getValue() : el.innerText;
  }, selector);
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
  const dbURL = `sqlite:${join(tmp, 'q.db')}`;
  run(bin, ['migrate', '--database-url', dbURL]);
  const boot = JSON.parse(run(bin, ['admin', 'bootstrap', '--database-url', dbURL, '--org', 'Test', '--email', 't@example.com']));
  const token = boot.token;
  if (!token) throw new Error('bootstrap printed no token');

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let serverLog = '';
  server = spawn(bin, ['serve', '--addr', `127.0.0.1:${port}`, '--database-url', dbURL], { stdio: ['ignore', 'pipe', 'pipe'] });
  server.stdout.on('data', (d) => (serverLog += d));
  server.stderr.on('data', (d) => (serverLog += d));
  try {
    await waitHealthy(base, Date.now() + 30000);
    log(`quire serve on ${base}`);
    await exercise(base, token, boot.organization.id);
  } catch (err) {
    log(`server log (tail):\n${serverLog.slice(-3000)}`);
    throw err;
  }
}

async function exercise(base, token, orgId) {
  // The API is unchanged for non-browser clients.
  let res = await fetch(`${base}/graphql?query=%7B__typename%7D`, { headers: { Accept: 'application/json' } });
  check('GET /graphql as an API client still needs a token', res.status === 401, `status ${res.status}`);
  res = await fetch(`${base}/graphql`, { headers: { Accept: 'text/html' } });
  const html = await res.text();
  check('GET /graphql as a browser serves the page without a token', res.status === 200 && /text\/html/.test(res.headers.get('content-type')), `status ${res.status} ${res.headers.get('content-type')}`);
  check('page has no absolute URL', !/https?:\/\//i.test(html));

  const profile = join(tmp, 'profile');
  context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    viewport: { width: 1400, height: 860 },
    timeout: 30000,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  context.setDefaultTimeout(20000);

  // Record every request; anything not for this server is refused and fails the test.
  const origin = new URL(base).origin;
  const foreign = [];
  const local = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('data:') || new URL(url).origin === origin) {
      local.push(url);
      return route.continue();
    }
    foreign.push(url);
    return route.abort();
  });

  const page = context.pages()[0] || (await context.newPage());
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') log(`console error: ${m.text()}`);
  });

  const nav = await page.goto(`${base}/graphql`, { waitUntil: 'load' });
  check('page loads', nav && nav.status() === 200, `status ${nav && nav.status()}`);
  await page.waitForSelector('.graphiql-container .graphiql-query-editor .CodeMirror');
  check('GraphiQL renders', true);

  // Token into the explicit field.
  await page.locator('#quire-token').fill(token);

  // Query typed into the editor, as a person would.
  const editor = '.graphiql-query-editor .CodeMirror';
  await page.click(`${editor} .CodeMirror-code`);
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.type('{ viewer { displayName } }', { delay: 15 });
  await page.keyboard.press('Escape'); // close any autocomplete popup
  const typed = (await editorText(page, editor)) || '';
  check('query typed into the editor', typed.replace(/\s+/g, ' ').trim() === '{ viewer { displayName } }', JSON.stringify(typed));

  await page.click('button.graphiql-execute-button');
  const result = '.graphiql-response .CodeMirror';
  let resultText = '';
  try {
    await page.waitForFunction(
      (sel) => {
        const el = document.querySelector(sel);
        return el && el.CodeMirror && el.CodeMirror.getValue().includes('"displayName"');
      },
      result,
      { timeout: 15000 },
    );
  } catch {
    // reported below
  }
  resultText = (await editorText(page, result)) || '';
  check('result panel shows "displayName": "t"', resultText.includes('"displayName": "t"'), resultText.slice(0, 300));

  // The request carried the token from the field.
  const stored = await page.evaluate(() => window.localStorage.getItem('quire-token'));
  check('token kept in localStorage', stored === token);

  // History plugin lists the query just run.
  await page.click('button[aria-label="Show History"]');
  const historyItem = await page.waitForSelector('.graphiql-history-item', { timeout: 5000 }).catch(() => null);
  check('history lists the query', historyItem !== null);

  // Docs explorer shows the schema (introspection ran with the token).
  await page.click('button[aria-label="Show Documentation Explorer"]');
  const rootType = await page
    .waitForFunction(() => [...document.querySelectorAll('.graphiql-doc-explorer-root-type')].some((e) => e.textContent === 'query'), null, { timeout: 10000 })
    .then(() => true)
    .catch(() => false);
  check('docs explorer shows the schema', rootType);

  await page.screenshot({ path: screenshot });
  log(`screenshot: ${screenshot}`);

  await subscription(page, base, token, orgId);

  // The token survives a reload.
  await page.reload({ waitUntil: 'load' });
  await page.waitForSelector('#quire-token');
  check('token field restored after reload', (await page.inputValue('#quire-token')) === token);

  check('no request left this origin', foreign.length === 0, foreign.join(', '));
  check('assets came from /graphiql/assets/', local.some((u) => u.includes('/graphiql/assets/graphiql.js')) && local.some((u) => u.includes('/graphiql/assets/graphiql.css')));
  check('no uncaught page errors', pageErrors.length === 0, pageErrors.join(' | '));
}

// subscription runs a subscription to a space's events from the editor,
// creates change requests in the space through the REST API, and waits for
// the result panel to show one (the subscription starts a moment after the
// button is pressed: change requests are created until one shows).
async function subscription(page, base, token, orgId) {
  const api = (method, path, body) =>
    fetch(`${base}/v1${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: body && JSON.stringify(body),
    }).then((r) => r.json());
  const space = await api('POST', `/orgs/${orgId}/spaces`, { title: 'Live' });
  check('space for the subscription created', typeof space.id === 'string', JSON.stringify(space));

  // The page's WebSockets and the frames it sends on them.
  const sockets = [];
  page.on('websocket', (ws) => {
    const s = { url: ws.url(), sent: [], closed: new Promise((r) => ws.on('close', () => r(true))) };
    sockets.push(s);
    ws.on('framesent', (f) => s.sent.push(String(f.payload)));
  });

  const editor = '.graphiql-query-editor .CodeMirror';
  const doc = `subscription { spaceEvents(space: "${space.id}") { kind changeRequest { subject } } }`;
  await page.evaluate(({ sel, text }) => document.querySelector(sel).CodeMirror.setValue(text), { sel: editor, text: doc });
  await page.click('button.graphiql-execute-button');

  const result = '.graphiql-response .CodeMirror';
  let seen = '';
  for (let i = 1; i <= 30 && !seen; i++) {
    const subject = `Live ${i}`;
    await api('POST', `/spaces/${space.id}/change-requests`, { subject });
    seen = await page
      .waitForFunction(
        ({ sel, subject }) => {
          const el = document.querySelector(sel);
          const v = el && el.CodeMirror ? el.CodeMirror.getValue() : '';
          return v.includes('change_request_created') && v.includes(subject) ? v : '';
        },
        { sel: result, subject },
        { timeout: 1000 },
      )
      .then((h) => h.jsonValue())
      .catch(() => '');
  }
  check('a subscription shows the events it receives', seen.includes('"kind": "change_request_created"'), seen.slice(0, 300));
  await page.screenshot({ path: subscriptionShot });
  log(`screenshot: ${subscriptionShot}`);
  const ws = sockets[0];
  check('the subscription ran over a WebSocket to /graphql', sockets.length === 1 && ws.url === `${base.replace('http:', 'ws:')}/graphql`, JSON.stringify(sockets.map((x) => x.url)));
  const frames = (ws ? ws.sent : []).map((f) => {
    try {
      return JSON.parse(f);
    } catch {
      return {};
    }
  });
  check(
    'connection_init carried the token',
    frames[0] && frames[0].type === 'connection_init' && frames[0].payload && frames[0].payload.Authorization === `Bearer ${token}`,
    JSON.stringify(frames[0] && frames[0].type),
  );
  check('the subscribe message was the editor\'s document', frames.some((f) => f.type === 'subscribe' && f.payload && f.payload.query === doc));
  // The execute button stops the subscription, and the socket closes.
  await page.click('button.graphiql-execute-button');
  const closed = ws && (await Promise.race([ws.closed, new Promise((r) => setTimeout(() => r(false), 10000))]));
  check('stopping the subscription closes its socket', closed === true);
}

const timer = setTimeout(() => {
  log(`timed out after ${TEST_TIMEOUT_MS / 1000}s`);
  stopServer();
  process.exit(1);
}, BUILD_TIMEOUT_MS + TEST_TIMEOUT_MS);

let code = 0;
try {
  await main();
} catch (err) {
  failed++;
  log(`error: ${err && err.stack ? err.stack : err}`);
} finally {
  await cleanup();
  clearTimeout(timer);
}
console.log(`${passed} passed, ${failed} failed`);
code = failed > 0 ? 1 : 0;
process.exit(code);
