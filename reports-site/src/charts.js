// uPlot charts of the history page: trends of several variants with interval bands and change points, and percentile curves.
import uPlot from 'uplot';
import { fmt } from './dom.js';
import { nines, ninesLabel, ninesSplits } from './nines.js';

export const COLORS = ['#1849a9', '#c4320a', '#067647', '#6941c6', '#b54708', '#0e7090', '#c11574', '#4e5ba6'];
const alpha = (hex, a) => `${hex}${Math.round(a * 255).toString(16).padStart(2, '0')}`;

/** How long a click on a trend waits for a second click (a double click resets the zoom) before it opens the run. */
const PICK_DELAY_MS = 300;

/** What the last charts drew, for tests and for the timing script. */
const registry = (window.__benchlineCharts = window.__benchlineCharts || []);

const width = (el) => Math.max(320, Math.min(1200, el.clientWidth || 900));

/**
 * Trend chart. lines: [{ label, color, x: [s], y: [...], lo: [...], hi: [...], runs: [runIndex], changes: [{ x, kind, label }] }].
 * Points of different variants need not share x: they are joined on x, gaps left as gaps.
 */
export function trendChart(el, { lines, unit, onCursor, onPick }) {
  const xs = [...new Set(lines.flatMap((l) => l.x))].sort((a, b) => a - b);
  const pos = new Map(xs.map((x, i) => [x, i]));
  const data = [xs];
  const series = [{}];
  const bands = [];
  lines.forEach((l, k) => {
    const y = new Array(xs.length).fill(null);
    const lo = new Array(xs.length).fill(null);
    const hi = new Array(xs.length).fill(null);
    l.x.forEach((x, i) => {
      const at = pos.get(x);
      y[at] = l.y[i];
      lo[at] = l.lo[i] ?? l.y[i];
      hi[at] = l.hi[i] ?? l.y[i];
    });
    const color = l.color || COLORS[k % COLORS.length];
    const base = data.length;
    data.push(y, hi, lo);
    series.push(
      { label: l.label, stroke: color, width: 1.5, spanGaps: true, points: { show: l.x.length <= 400, size: 4 }, value: (u, v) => fmt(v, unit) },
      { label: `${l.label} upper`, stroke: 'transparent', spanGaps: true, points: { show: false }, value: (u, v) => fmt(v, unit) },
      { label: `${l.label} lower`, stroke: 'transparent', spanGaps: true, points: { show: false }, value: (u, v) => fmt(v, unit) },
    );
    bands.push({ series: [base + 1, base + 2], fill: alpha(color, 0.14) });
  });
  const entry = { kind: 'trend', lines: lines.length, points: lines.reduce((s, l) => s + l.x.length, 0), markers: 0, el };
  const drawChanges = (u) => {
    const { ctx } = u;
    const top = u.bbox.top;
    const bottom = u.bbox.top + u.bbox.height;
    let markers = 0;
    ctx.save();
    lines.forEach((l, k) => {
      for (const c of l.changes || []) {
        const px = Math.round(u.valToPos(c.x, 'x', true));
        if (px < u.bbox.left || px > u.bbox.left + u.bbox.width) continue;
        ctx.strokeStyle = c.kind === 'regression' ? '#d92d20' : '#079455';
        ctx.lineWidth = 2 * devicePixelRatio;
        ctx.setLineDash([6 * devicePixelRatio, 4 * devicePixelRatio]);
        ctx.beginPath();
        ctx.moveTo(px, top);
        ctx.lineTo(px, bottom);
        ctx.stroke();
        ctx.setLineDash([]);
        ctx.fillStyle = l.color || COLORS[k % COLORS.length];
        ctx.beginPath();
        ctx.moveTo(px - 6 * devicePixelRatio, top);
        ctx.lineTo(px + 6 * devicePixelRatio, top);
        ctx.lineTo(px, top + 9 * devicePixelRatio);
        ctx.fill();
        markers += 1;
      }
    });
    ctx.restore();
    entry.markers = markers;
  };
  const opts = {
    width: width(el),
    height: 320,
    // the axis and the legend in UTC, as every time in the tables and run ids is, whatever the reader's time zone
    tzDate: (ts) => uPlot.tzDate(new Date(ts * 1e3), 'Etc/UTC'),
    // one time only (a single run): uPlot would stretch the axis over 1,000 days to its right; a day around it instead
    scales: { x: { time: true, ...(xs.length === 1 ? { range: () => [xs[0] - 43200, xs[0] + 43200] } : {}) } },
    series,
    bands,
    // every tick in the unit of the largest: 0 ms, 5 ms, 10 ms rather than 0 ns, 5 ms, 10 ms
    axes: [{}, { size: 80, values: (u, splits) => splits.map((v) => fmt(v, unit, Math.max(...splits.map(Math.abs)))) }],
    legend: { live: true },
    cursor: { drag: { x: true, y: false } },
    hooks: {
      draw: [drawChanges],
      setCursor: [(u) => onCursor && onCursor(u.cursor.idx === null || u.cursor.idx === undefined ? null : xs[u.cursor.idx])],
    },
  };
  el.replaceChildren();
  const plot = new uPlot(opts, data, el);
  // legend rows of the band edges add nothing for a reader
  [...el.querySelectorAll('.u-legend .u-series')].forEach((row, i) => { if (i > 0 && (i - 1) % 3 !== 0) row.style.display = 'none'; });
  if (onPick) {
    // a double click resets the zoom: its first click must not open a run, so a click waits to see whether a second follows
    let pending = null;
    plot.over.addEventListener('click', (e) => {
      clearTimeout(pending);
      const idx = plot.cursor.idx;
      if (e.detail > 1 || idx === null || idx === undefined) return;
      pending = setTimeout(() => { if (el.isConnected) onPick(xs[idx]); }, PICK_DELAY_MS);
    });
    plot.over.addEventListener('dblclick', () => clearTimeout(pending));
  }
  registry.push(entry);
  return plot;
}


/**
 * Labels of a log axis. Base 10: each power of ten, and its 2x and 5x while a decade has room. Base 2 (bytes):
 * powers of two, every other one when there are many. Other ticks stay unlabelled.
 */
function logTickLabels(splits, format, { decades = 1, base = 10 } = {}) {
  if (base === 2) {
    const step = splits.length > 8 ? 2 : 1;
    return splits.map((v) => (v > 0 && Math.round(Math.log2(v)) % step === 0 ? format(v) : ''));
  }
  const mantissas = decades > 4 ? [1] : decades > 2 ? [1, 3] : [1, 2, 5];
  return splits.map((v) => {
    if (!(v > 0)) return '';
    const m = Math.round(v / 10 ** Math.floor(Math.log10(v) + 1e-9));
    return mantissas.includes(m) ? format(v) : '';
  });
}

/** The powers of `base` around [lo, hi], at least one step apart. */
function decadeRange(lo, hi, base = 10) {
  const log = (v) => Math.log(v) / Math.log(base);
  const a = Math.floor(log(lo) + 1e-9);
  return [base ** a, base ** Math.max(a + 1, Math.ceil(log(hi) - 1e-9))];
}

/**
 * Latency percentile curves: lines = [{ label, percentiles: [{ p, value }] }]. Time is on a log axis: tails are
 * orders of magnitude above the median, and on a linear axis everything under the largest value's scale reads 0.
 */
export function percentileChart(el, { lines, unit }) {
  const xs = [...new Set(lines.flatMap((l) => l.percentiles.map((q) => nines(q.p))))].sort((a, b) => a - b);
  const pos = new Map(xs.map((x, i) => [x, i]));
  const data = [xs];
  const series = [{ label: 'percentile', value: (u, v) => (v === null ? '–' : ninesLabel(v)) }];
  let lo = Infinity;
  let hi = 0;
  lines.forEach((l, k) => {
    const y = new Array(xs.length).fill(null);
    // a log axis has no 0: a zero percentile (a timer's resolution) is left out of the line, kept in the table
    for (const q of l.percentiles) {
      if (!(q.value > 0)) continue;
      y[pos.get(nines(q.p))] = q.value;
      lo = Math.min(lo, q.value);
      hi = Math.max(hi, q.value);
    }
    data.push(y);
    series.push({ label: l.label, stroke: COLORS[k % COLORS.length], width: 1.5, spanGaps: true, points: { show: true, size: 5 }, value: (u, v) => fmt(v, unit) });
  });
  const decades = hi > 0 ? Math.log10(hi / lo) : 1;
  // sizes step in powers of two (1 KiB, 2 KiB, 4 KiB ...), times in powers of ten
  const base = unit === 'bytes' ? 2 : 10;
  // what was drawn, with the time axis' labels as shown, for tests
  const entry = { kind: 'percentiles', lines: lines.length, points: lines.reduce((s, l) => s + l.percentiles.length, 0), scale: 'log', ticks: [], el };
  const opts = {
    width: width(el),
    height: 320,
    scales: {
      x: { time: false },
      // whole powers of the base around the data, so the axis starts and ends on a labelled power of ten
      y: { distr: 3, log: base, range: () => (hi > 0 ? decadeRange(lo, hi, base) : [1, base]) },
    },
    series,
    axes: [
      { splits: () => ninesSplits(xs[0], xs[xs.length - 1]), values: (u, splits) => splits.map(ninesLabel) },
      { size: 80, values: (u, splits) => logTickLabels(splits, (v) => fmt(v, unit), { decades, base }) },
    ],
    hooks: { draw: [(u) => { entry.ticks = (u.axes[1]._values || []).filter(Boolean); entry.percentileTicks = (u.axes[0]._values || []).filter(Boolean); }] },
  };
  el.replaceChildren();
  const plot = new uPlot(opts, data, el);
  registry.push(entry);
  return plot;
}
