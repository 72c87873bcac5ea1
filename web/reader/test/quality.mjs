// Quality checks by tools nobody here wrote: axe-core for accessibility,
// Lighthouse for accessibility and performance scores, linkinator for
// broken links.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { LinkChecker } from 'linkinator';
import { check, log } from './util.mjs';

const SERIOUS = new Set(['serious', 'critical']);
const MIN_SCORE = 95;
// The JSON report is kept only while it stays this small.
const MAX_REPORT_BYTES = 1024 * 1024;

// accessibility runs axe-core on the home, the long page and the search
// page, each in the light and the dark theme.
export async function accessibility(env) {
  const pages = {
    home: env.site,
    'long page': `${env.site}/writing/long-reference`,
    'search page': `${env.site}/~search?q=page`,
  };
  for (const theme of ['light', 'dark']) {
    const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
    // The theme as the toggle would leave it: the stored choice and its cookie.
    const host = new URL(env.base).hostname;
    await context.addCookies([{ name: 'quire-theme', value: theme, domain: host, path: '/' }]);
    await context.addInitScript((t) => localStorage.setItem('quire-theme', t), theme);
    const page = await context.newPage();
    for (const [name, url] of Object.entries(pages)) {
      await page.goto(url, { waitUntil: 'load' });
      const shown = await page.evaluate(() => document.documentElement.getAttribute('data-theme'));
      const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
      const bad = result.violations.filter((v) => SERIOUS.has(v.impact));
      for (const v of result.violations) {
        log(`axe ${name} (${theme}): ${v.impact} ${v.id}: ${v.help}`);
        for (const n of v.nodes.slice(0, 5)) log(`    ${n.target.join(' ')}: ${n.failureSummary.replace(/\s+/g, ' ')}`);
      }
      check(`axe: ${name} in the ${theme} theme has no serious or critical violation`, shown === theme && bad.length === 0, shown !== theme ? `data-theme ${shown}` : bad.map((v) => v.id).join(', '));
    }
    await context.close();
  }
}

// lighthouseScores runs Lighthouse (default mobile configuration: an
// emulated phone on simulated slow 4G and a 4x slower CPU) on a typical page.
export async function lighthouseScores(env, chromePath) {
  const url = `${env.site}/getting-started/configuration`;
  const flags = ['--headless=new', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
  if (process.getuid && process.getuid() === 0) flags.push('--no-sandbox');
  const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: flags, logLevel: 'silent' });
  try {
    const run = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['accessibility', 'performance', 'best-practices', 'seo'] });
    const lhr = run.lhr;
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const score = (c) => Math.round((lhr.categories[c]?.score ?? 0) * 100);
    const scores = Object.fromEntries(Object.keys(lhr.categories).map((c) => [c, score(c)]));
    log(`lighthouse ${lhr.lighthouseVersion} (${lhr.configSettings.formFactor}) on ${url}: ${JSON.stringify(scores)}`);
    for (const id of ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index']) {
      const a = lhr.audits[id];
      if (a) log(`    ${id}: ${a.displayValue}`);
    }
    for (const [cat, c] of Object.entries(lhr.categories)) {
      for (const ref of c.auditRefs) {
        const a = lhr.audits[ref.id];
        if (ref.weight > 0 && a.score !== null && a.score < 1) log(`    ${cat}: ${a.id} scored ${a.score}: ${a.title}`);
      }
    }
    check(`lighthouse accessibility >= ${MIN_SCORE}`, scores.accessibility >= MIN_SCORE, `${scores.accessibility}`);
    check(`lighthouse performance >= ${MIN_SCORE}`, scores.performance >= MIN_SCORE, `${scores.performance}`);
    const report = typeof run.report === 'string' ? run.report : run.report[0];
    if (Buffer.byteLength(report) <= MAX_REPORT_BYTES) {
      writeFileSync(join(env.artifacts, 'lighthouse-reader.json'), report);
      log(`report: ${join(env.artifacts, 'lighthouse-reader.json')}`);
    } else {
      log(`report of ${Buffer.byteLength(report)} bytes not kept`);
    }
  } finally {
    await chrome.kill();
  }
}

// brokenLinks crawls the public site from its root with linkinator,
// following only the server's own URLs.
export async function brokenLinks(env) {
  const origin = new URL(env.base).origin;
  const checker = new LinkChecker();
  const result = await checker.check({
    path: env.site,
    recurse: true,
    timeout: 10000,
    concurrency: 4,
    // Only the server under test: external links are skipped, never fetched.
    linksToSkip: async (link) => !link.startsWith(origin),
  });
  const checked = result.links.filter((l) => l.state !== 'SKIPPED');
  const broken = result.links.filter((l) => l.state === 'BROKEN');
  for (const l of broken) log(`broken: ${l.url} (${l.status}) on ${l.parent}`);
  log(`linkinator checked ${checked.length} links, skipped ${result.links.length - checked.length}`);
  check('linkinator crawled the site', checked.filter((l) => l.url.startsWith(env.site)).length >= 15, `${checked.length}`);
  check('linkinator finds no broken internal link', broken.length === 0, `${broken.length} broken`);
  await agentFiles(env);
}

// agentFiles checks what robots and language models read besides the
// pages: robots.txt names the sitemap, and every URL in the sitemap and in
// llms.txt answers 200.
async function agentFiles(env) {
  const get = async (url) => {
    const res = await fetch(url);
    return { status: res.status, type: res.headers.get('content-type') || '', body: await res.text() };
  };
  const robots = await get(`${env.site}/robots.txt`);
  check('robots.txt names the sitemap', robots.status === 200 && robots.body.includes(`Sitemap: ${env.site}/sitemap.xml`), robots.body.slice(0, 200));
  const sitemap = await get(`${env.site}/sitemap.xml`);
  const locs = [...sitemap.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1].replaceAll('&amp;', '&'));
  const llms = await get(`${env.site}/llms.txt`);
  const mds = [...llms.body.matchAll(/\]\((http[^)\s]+)\)/g)].map((m) => m[1]);
  check('the sitemap lists the pages of both sections', sitemap.status === 200 && locs.length >= 17, `${sitemap.status}, ${locs.length} URLs`);
  check('llms.txt links the pages as Markdown', llms.status === 200 && mds.length >= 17 && mds.every((u) => u.endsWith('.md')), `${llms.status}, ${mds.length} links`);
  const bad = [];
  for (const url of [...locs, ...mds]) {
    if (!url.startsWith(env.site)) {
      bad.push(`${url} (not on the site)`);
      continue;
    }
    const r = await get(url);
    const want = url.endsWith('.md') ? 'text/markdown' : 'text/html';
    if (r.status !== 200 || !r.type.startsWith(want)) bad.push(`${url} (${r.status} ${r.type})`);
  }
  check('every URL of the sitemap and llms.txt answers 200 with its type', bad.length === 0, bad.join(', '));
}
