// A history site built in a temp folder and opened in Chromium, for the tests of what its views show.
import { before, after } from 'node:test';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { launchChromium } from '../../ci/store/browser.js';
import { tempDir } from './temp.js';

/**
 * Registers the hooks that make the site (`build(dir, out)`: publish a store in `dir` and build the site into `out`),
 * start Chromium with one page (`launch`: launchChromium's options) and close it. Returns { dir, out, page, errors,
 * ready(), open(hash) }, whose fields are set once the hooks ran: `errors` collects the page's uncaught errors, and
 * `open` loads index.html from file:// at a hash route and waits for the view to be drawn.
 */
export function siteInChromium(name, build, launch) {
  let browser;
  const site = {
    dir: null,
    out: null,
    page: null,
    errors: [],
    ready: () => site.page.waitForSelector('#view[data-ready="1"]', { timeout: 15000 }),
    async open(hash) {
      await site.page.goto(`${pathToFileURL(join(site.out, 'index.html')).href}${hash}`);
      await site.ready();
    },
  };
  before(async () => {
    site.dir = tempDir(name);
    site.out = join(site.dir, 'site');
    await build(site.dir, site.out);
    browser = await launchChromium(launch);
    site.page = await browser.context.newPage();
    site.page.on('pageerror', (e) => site.errors.push(e.message));
  });
  after(async () => {
    await browser?.close();
  });
  return site;
}
