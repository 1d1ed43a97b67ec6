// DOM and formatting helpers of the history page: elements are built from text, never from HTML strings.
import { formatValue } from '../../ci/units.js';
import { shownInterval } from './intervals.js';

/** h('td', { class: 'num', dataset: { v: 1 } }, 'text', child) -> element; null/false children are skipped. */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k === 'class') el.className = v;
    else if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

export const fmt = (v, unit, reference) => formatValue(v, unit, reference);
export const pct = (x) => (x === null || x === undefined || Number.isNaN(x) ? '–' : `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`);
/** A confidence level as a percentage: 0.95 -> "95%", 0.999 -> "99.9%". */
export const levelPct = (c) => `${+(c * 100).toFixed(2)}%`;
export const shortSha = (c) => (c ? c.slice(0, 10) : '–');
export const date = (iso) => (iso ? new Date(iso).toISOString().replace('T', ' ').slice(0, 16) : '–');

/** A number cell whose raw value rides along in data-v, so what is shown can be checked against the store. */
export const numCell = (v, unit, extra = {}) => h('td', { class: `num ${extra.class || ''}`.trim(), dataset: { v: v === undefined || v === null ? '' : String(v) } }, fmt(v, unit));

/** Explains the mark ° of an interval cut at zero; views that show one add this note below their table. */
const CLAMP_NOTE = '° cut at 0: the tool\'s interval reaches below zero (JMH reports mean ± its 99.9% error, which can exceed the mean), but a time, size, rate or count cannot be negative.';

/** "lower – upper" of an interval, or a dash when the tool gave none; a lower end below an impossible 0 shows as 0°. */
export function interval(lo, hi, unit) {
  const s = shownInterval(lo, hi, unit);
  if (s.lo === null || s.hi === null) return '–';
  return `${fmt(s.lo, unit)}${s.clamped ? '°' : ''} – ${fmt(s.hi, unit)}`;
}

/** A table cell with the interval; when it was cut at 0 its title gives what the tool reported. */
export function intervalCell(lo, hi, unit) {
  const s = shownInterval(lo, hi, unit);
  return h('td', { class: `num interval${s.clamped ? ' clamped' : ''}`, title: s.clamped ? `reported: ${fmt(s.rawLo, unit)} – ${fmt(s.hi, unit)}; cut at 0` : null, dataset: s.clamped ? { lo: String(s.rawLo) } : undefined }, interval(lo, hi, unit));
}

/** The clamp note as a paragraph when any interval under `el` was cut at 0, else an empty text. */
export const clampNote = (el) => (el.querySelector('.clamped') ? h('p', { class: 'muted note clamp-note' }, CLAMP_NOTE) : '');

/** What a table's columns mean, below it: [[column, meaning], ...] as one muted paragraph. */
export const columnsNote = (items) => h('p', { class: 'muted note columns' }, items.flatMap(([k, v], i) => [i ? ' ' : '', h('strong', {}, k), `: ${v}`]));

/** Link to a commit on the forge when its URL is known, else to the run that measured it. */
export function commitLink(commit, repoUrl, runId) {
  if (commit && repoUrl) return h('a', { href: `${repoUrl.replace(/\/$/, '')}/commit/${commit}`, class: 'mono commit', target: '_blank', rel: 'noopener' }, shortSha(commit));
  return h('a', { href: `#/run/${encodeURIComponent(runId)}`, class: 'mono commit' }, commit ? shortSha(commit) : runId);
}

export const runLink = (id) => h('a', { href: `#/run/${encodeURIComponent(id)}`, class: 'mono' }, id);
export const trendLink = (chart, text) => h('a', { href: `#/trend/${encodeURIComponent(chart)}` }, text);
export const metricLabel = (x) => (x.case ? `${x.case} · ${x.name}` : x.name);

/**
 * A table with a header row. A header sits right-aligned over a column of numbers: the column's cells say so (class
 * num) in the first row; a table without rows goes by the header's name.
 */
export function table(headers, rows, attrs = {}) {
  const first = rows.find((r) => r instanceof Element);
  const numeric = (x, i) => (first ? Boolean(first.children[i]?.classList.contains('num')) : /^(value|change|before|after|p|interval|trials|points|ok|failed)$/i.test(x));
  return h('table', attrs, h('thead', {}, h('tr', {}, headers.map((x, i) => (x instanceof Node ? x : h('th', { class: numeric(x, i) ? 'num' : '' }, x))))), h('tbody', {}, rows));
}
