// Entry of the history page: loads the index, routes #/hash URLs to views, and marks when a view is drawn.
import { loadIndex } from './data.js';
import { h } from './dom.js';
import { overview } from './views/overview.js';
import { trend } from './views/trend.js';
import { compareView } from './views/compare.js';
import { variants } from './views/variants.js';
import { runView } from './views/run.js';
import { runsView } from './views/runs.js';
import { reportView } from './views/report.js';

const ROUTES = [
  [/^#?\/?$/, 'overview', () => overview],
  [/^#\/trend\/(.+)$/, 'trend', () => trend],
  [/^#\/compare(?:\/([^/]+)(?:\/([^/]+))?)?$/, 'compare', () => compareView],
  [/^#\/variants\/(.+)$/, 'variants', () => variants],
  [/^#\/report\/(.+)$/, 'report', () => reportView],
  [/^#\/run\/(.+)$/, 'run', () => runView],
  [/^#\/runs(?:\/(\d+))?$/, 'runs', () => runsView],
];

const root = document.getElementById('view');
let index;
let current = 0;

/** A route's parts as text, or null when one is not valid percent-encoding (a link cut short, a hand-typed %). */
function decodeParams(match) {
  try {
    return match.slice(1).map((p) => (p === undefined ? undefined : decodeURIComponent(p)));
  } catch {
    return null;
  }
}

/** The tab's title for a drawn view: its heading, then the site's title (browser history, bookmarks and screen readers tell views apart by it). */
function titleOf(el, site) {
  const heading = el.querySelector('h1')?.textContent.trim();
  const error = el.querySelector('.error')?.textContent.trim();
  const own = heading || error;
  return own && own !== site ? `${own} · ${site}` : site;
}

/**
 * Tells a screen reader which view opened, by its title: the view itself is no live region, which would read out
 * every row of a 100-run table on each navigation.
 */
const announce = (text) => { document.getElementById('announce').textContent = text; };

async function route() {
  const hash = location.hash || '#/';
  let found = ROUTES.map(([re, name, view]) => [re.exec(hash), name, view]).find(([m]) => m);
  const params = found && decodeParams(found[0]);
  if (!params) found = undefined;
  const ticket = ++current;
  root.dataset.ready = '0';
  document.querySelectorAll('[data-nav]').forEach((a) => a.classList.toggle('active', found && a.dataset.nav === found[1]));
  if (!found) {
    root.replaceChildren(h('p', { class: 'error' }, `No such page: ${hash}`), h('a', { href: '#/' }, 'Back to the overview'));
    document.title = `No such page · ${index.title}`;
    announce(document.title);
    root.dataset.ready = '1';
    return;
  }
  const [, name, view] = found;
  document.body.dataset.view = name;
  const el = h('div', { class: `view view-${name}` });
  try {
    await view()(el, { index, params });
  } catch (e) {
    el.replaceChildren(h('p', { class: 'error' }, e.message));
  }
  if (ticket !== current) return; // a newer navigation won
  // a control that navigated (Compare's run pickers, changed with the arrow keys) keeps the keyboard's focus in the new view
  const focused = root.contains(document.activeElement) && document.activeElement.id ? document.activeElement.id : null;
  root.replaceChildren(el);
  document.title = titleOf(el, index.title);
  announce(document.title);
  if (focused) document.getElementById(focused)?.focus();
  // views draw charts into detached elements; uPlot sizes need the element in the page, so views may finish here
  for (const fn of el.__afterMount || []) fn();
  root.dataset.ready = '1';
  performance.mark(`benchline:${name}`);
}

async function main() {
  try {
    index = await loadIndex();
  } catch (e) {
    root.replaceChildren(h('p', { class: 'error' }, e.message));
    root.dataset.ready = '1';
    return;
  }
  document.title = index.title;
  document.getElementById('generated').textContent = `Built ${index.generatedAt.replace('T', ' ').slice(0, 19)} UTC from ${index.counts.runs} runs, ${index.counts.series} series.`;
  window.addEventListener('hashchange', route);
  await route();
}

main();
