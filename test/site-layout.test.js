// The site's layout holds with free text from documents: a long ref or runner name does not widen the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { publish } from '../ci/store/store.js';
import { buildSite } from '../ci/store/site.js';
import { syntheticDocs } from '../ci/store/synthetic.js';
import { launchChromium } from '../ci/store/browser.js';
import { tempDir } from './support/temp.js';

test('a run list with a 200-character ref and runner name fits a 1280-pixel window, each cut short with its whole text in the title', async () => {
  const d = tempDir('site-layout');
  const ref = 'r'.repeat(200);
  const runner = 'n'.repeat(150);
  const docs = [...syntheticDocs({ runs: 3 })].map((x) => ({ ...x, run: { ...x.run, ref }, runner: { ...x.runner, name: runner } }));
  await publish({ store: join(d, 'store'), docs });
  await buildSite({ store: join(d, 'store'), out: join(d, 'site') });
  const browser = await launchChromium();
  try {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`file://${join(d, 'site', 'index.html')}#/runs`);
    await page.waitForSelector('tr.run');
    const { scroll, client, titles } = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
      titles: [...document.querySelectorAll('tr.run td.clip')].map((td) => td.title),
    }));
    assert.ok(scroll <= client, `the page is ${scroll} px wide in a ${client}-px window`);
    assert.ok(titles.includes(ref) && titles.includes(runner), 'the whole text is in the title');
  } finally {
    await browser.close();
  }
});
