// A reader's flows through a published site in Chromium: the first page,
// section tabs, the variant switcher, the sidebar, previous and next,
// search as you type and the search page, the theme toggle, a share link,
// a narrow screen, and the same site with JavaScript off.
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { check, log } from './util.mjs';

// newContext opens a browser context whose requests may only go to the
// server under test: anything else is refused and fails the run.
async function newContext(env, options = {}) {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });
  context.setDefaultTimeout(15000);
  const origin = new URL(env.base).origin;
  context.foreign = [];
  context.errors = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('data:') || new URL(url).origin === origin) return route.continue();
    context.foreign.push(url);
    return route.abort();
  });
  context.on('page', (p) => p.on('pageerror', (e) => context.errors.push(String(e))));
  return context;
}

async function closeContext(name, context) {
  check(`${name}: no request left the server`, context.foreign.length === 0, context.foreign.join(', '));
  check(`${name}: no uncaught page errors`, context.errors.length === 0, context.errors.join(' | '));
  await context.close();
}

const h1 = (page) => page.locator('main h1').first().innerText();

// follow clicks a link and waits for the page it opens.
async function follow(page, locator) {
  await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), locator.click()]);
}

export async function readerFlows(env) {
  const shot = (name) => join(env.artifacts, name);
  const context = await newContext(env);
  const page = await context.newPage();

  const res = await page.goto(env.site, { waitUntil: 'load' });
  check('the site root answers 200 HTML', res.status() === 200 && /text\/html/.test(res.headers()['content-type']), `${res.status()}`);
  check('the root shows the first page', (await h1(page)) === 'Welcome', await h1(page));
  check('the title names the page and the site', /Welcome/.test(await page.title()) && /Acme docs/.test(await page.title()), await page.title());
  await page.keyboard.press('Tab');
  check('the first Tab reaches the skip link', (await page.evaluate(() => document.activeElement.textContent)) === 'Skip to content');
  await page.keyboard.press('Enter');
  check('the skip link moves focus to the content', await page.evaluate(() => document.activeElement.id === 'content'));
  check('the first page is current in the sidebar', (await page.locator('.tree a[aria-current="page"]').innerText()).trim() === 'Welcome');
  await page.screenshot({ path: shot('reader-home.png'), fullPage: true });

  // Section tabs.
  await follow(page, page.locator('nav.sections a', { hasText: 'API' }));
  check('the API tab opens its section', page.url() === `${env.site}/api` && (await h1(page)) === 'API overview', page.url());
  check('the API tab is current', (await page.locator('nav.sections a[aria-current]').innerText()).includes('API'));
  check('the section shows its default variant', (await page.locator('.content').innerText()).includes('Version 2'));

  // Variant switcher.
  await page.locator('.variants summary').click();
  const other = page.locator('.variants a:not([aria-current])').first();
  const otherTitle = (await other.innerText()).trim();
  await follow(page, other);
  check(`the variant switcher opens ${otherTitle}`, (await page.locator('.content').innerText()).includes('Version 1'), page.url());
  check('the switcher names the variant shown', (await page.locator('.variants summary').innerText()).includes(otherTitle));

  // Sidebar, back in the first section.
  await follow(page, page.locator('nav.sections a', { hasText: 'Guides' }));
  check('the Guides tab goes back to the first page', (await h1(page)) === 'Welcome', page.url());
  await follow(page, page.locator('.tree a', { hasText: 'Installation' }));
  check('the sidebar opens Installation', (await h1(page)) === 'Installation', page.url());
  check('Installation is current in the sidebar', (await page.locator('.tree a[aria-current="page"]').innerText()).trim() === 'Installation');
  check('its code blocks are rendered', (await page.locator('.content pre').count()) >= 2);
  const installURL = page.url();

  // Previous and next.
  const nextTitle = (await page.locator('.pagination a.next .t').innerText()).trim();
  await follow(page, page.locator('.pagination a.next'));
  check(`next opens ${nextTitle}`, (await h1(page)) === nextTitle, await h1(page));
  await follow(page, page.locator('.pagination a.prev'));
  check('previous comes back', page.url() === installURL, page.url());

  // Search as you type, then the search page.
  const box = page.locator('#search-box');
  await box.click();
  await box.pressSequentially('share link', { delay: 30 });
  // An answer for a prefix typed so far may show first; wait for a real suggestion.
  const suggestion = page.locator('#search-suggest [role="option"]:not([aria-disabled])');
  await suggestion.first().waitFor({ state: 'visible' }).catch(() => {});
  check('search as you type shows suggestions', (await suggestion.count()) > 0, await page.locator('#search-suggest').innerText().catch(() => ''));
  check('a suggestion names Share links', (await suggestion.filter({ hasText: 'Share links' }).count()) > 0);
  check('the box says its list is open', (await box.getAttribute('aria-expanded')) === 'true');
  await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), box.press('Enter')]);
  check('Enter opens the search page', page.url().startsWith(`${env.site}/~search?q=`), page.url());
  const hits = await page.locator('ol.results li').count();
  check('the search page lists results', hits > 0, `${hits}`);
  check('Share links is a result', (await page.locator('ol.results a', { hasText: 'Share links' }).count()) === 1);
  await page.screenshot({ path: shot('reader-search.png'), fullPage: true });
  const searchForm = page.locator('form.search-page input[name=q]');
  await searchForm.fill('richer');
  await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), searchForm.press('Enter')]);
  check('the search page form searches again', (await page.locator('ol.results a', { hasText: 'Writing pages' }).count()) === 1, page.url());

  // Theme toggle: data-theme changes and survives a reload.
  await page.goto(`${env.site}/writing/long-reference`, { waitUntil: 'load' });
  check('the long page has an outline', (await page.locator('.outline li').count()) >= 12);
  const theme = () => page.evaluate(() => document.documentElement.getAttribute('data-theme'));
  const before = await theme();
  const toggle = page.locator('.theme-toggle');
  check('the theme toggle shows with JavaScript', await toggle.isVisible());
  await toggle.click();
  const after = await theme();
  check('the toggle changes data-theme', after && after !== before, `${before} -> ${after}`);
  check('the toggle reports its state', (await toggle.getAttribute('aria-pressed')) === (after === 'dark' ? 'true' : 'false'));
  await page.reload({ waitUntil: 'load' });
  check('the theme survives a reload', (await theme()) === after, await theme());
  const served = await page.evaluate(async () => (await (await fetch(location.href)).text()).match(/<html[^>]*>/)[0]);
  check('the server opens later pages in the chosen theme', served.includes(`data-theme="${after}"`), served);
  if (after === 'dark') await page.screenshot({ path: shot('reader-page-dark.png'), fullPage: true });
  else log('toggle did not reach dark; reader-page-dark.png not written');
  await closeContext('reader flows', context);

  await shareLink(env);
  await narrowScreen(env, shot);
  await withoutJavaScript(env, installURL);
}

async function shareLink(env) {
  const context = await newContext(env);
  const page = await context.newPage();
  let res = await page.goto(env.shareURL, { waitUntil: 'load' });
  check('the share URL opens the site', res.status() === 200 && (await h1(page)) === 'Internal notes', `${res.status()}`);
  const links = await page.locator('a[href]').evaluateAll((as) => as.map((a) => a.href));
  const own = links.filter((h) => h.startsWith(env.shareSite));
  check('its links keep the key', own.length > 0 && own.every((h) => h.startsWith(env.shareURL)), own.join(' '));
  res = await page.goto(env.shareSite, { waitUntil: 'load' });
  check('the site without the key is a 404 page', res.status() === 404 && (await h1(page)) === 'Page not found', `${res.status()} ${await h1(page)}`);
  check('the 404 page does not show the site', !(await page.content()).includes('Notes for the reviewers'));
  await closeContext('share link', context);
}

async function narrowScreen(env, shot) {
  const context = await newContext(env, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  const page = await context.newPage();
  await page.goto(`${env.site}/getting-started/configuration`, { waitUntil: 'load' });
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  check('nothing overflows a 390px screen', width <= 390, `scrollWidth ${width}`);
  const menu = page.locator('.sidebar details.menu');
  check('the sidebar folds into a closed menu', (await menu.count()) === 1 && !(await menu.evaluate((d) => d.open)));
  await page.screenshot({ path: shot('reader-mobile.png'), fullPage: false });
  // The table scrolls sideways here: keyboard users must be able to reach it.
  const axe = await new AxeBuilder({ page }).analyze();
  const bad = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  for (const v of bad) log(`axe narrow screen: ${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  check('axe: a page with a wide table on a 390px screen has no serious or critical violation', bad.length === 0, bad.map((v) => v.id).join(', '));
  await menu.locator('summary').click();
  await follow(page, page.locator('.tree a', { hasText: 'Glossary' }));
  check('the menu navigates on a narrow screen', (await h1(page)) === 'Glossary', page.url());
  await closeContext('narrow screen', context);
}

async function withoutJavaScript(env, url) {
  const context = await newContext(env, { javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(url, { waitUntil: 'load' });
  check('without JavaScript the page reads', (await h1(page)) === 'Installation');
  check('without JavaScript the theme toggle stays hidden', !(await page.locator('.theme-toggle').isVisible()));
  const menu = page.locator('.sidebar details.menu');
  if (!(await page.locator('.tree a', { hasText: 'FAQ' }).isVisible())) await menu.locator('summary').click();
  await follow(page, page.locator('.tree a', { hasText: 'FAQ' }));
  check('without JavaScript the sidebar navigates', (await h1(page)) === 'FAQ', page.url());
  await follow(page, page.locator('nav.sections a', { hasText: 'API' }));
  check('without JavaScript the section tabs navigate', (await h1(page)) === 'API overview', page.url());
  await page.locator('.variants summary').click();
  await follow(page, page.locator('.variants a:not([aria-current])').first());
  check('without JavaScript the variant switcher navigates', (await page.locator('.content').innerText()).includes('Version 1'), page.url());
  const box = page.locator('#search-box');
  await box.fill('bearer token');
  await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), box.press('Enter')]);
  check('without JavaScript the search form submits', page.url().includes('/~search?q=bearer+token') || page.url().includes('/~search?q=bearer%20token'), page.url());
  check('without JavaScript the search page lists results', (await page.locator('ol.results li').count()) > 0);
  await closeContext('without JavaScript', context);
}
