// orders-api: the items route of seed 004 on Bun with an embedded SQLite database and an optional in-memory cache.
import { Database } from 'bun:sqlite';
import { seedItems } from './data.js';

const PORT = Number.parseInt(process.env.PORT ?? '3001', 10);
const HOST = process.env.HOST || '127.0.0.1';
const CACHE = (process.env.CACHE || 'off').toLowerCase();
const WORK_US = Number(process.env.WORK_US || 0);
const DB_PATH = process.env.DB || ':memory:';

function fail(message) {
  console.error(`orders-api: ${message}`);
  process.exit(2);
}
if (!Number.isInteger(PORT) || PORT < 0 || PORT > 65535) fail(`PORT=${process.env.PORT} is not a port number; use e.g. PORT=3001 (0 picks a free one)`);
if (CACHE !== 'on' && CACHE !== 'off') fail(`CACHE=${process.env.CACHE} must be "on" or "off"`);
if (!Number.isFinite(WORK_US) || WORK_US < 0) fail(`WORK_US=${process.env.WORK_US} must be a number of microseconds >= 0`);

/** Creates the table and replaces its rows, so every start measures the same data even with a file DB. */
function openDatabase(path) {
  const db = new Database(path, { create: true });
  if (path !== ':memory:') db.exec('PRAGMA journal_mode = WAL');
  db.exec(`CREATE TABLE IF NOT EXISTS items (
    id INTEGER PRIMARY KEY,
    sku TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    category TEXT NOT NULL,
    price REAL NOT NULL,
    quantity INTEGER NOT NULL,
    status TEXT NOT NULL
  )`);
  const insert = db.prepare('INSERT INTO items (id, sku, name, category, price, quantity, status) VALUES ($id, $sku, $name, $category, $price, $quantity, $status)');
  db.transaction((rows) => {
    db.exec('DELETE FROM items');
    for (const r of rows) insert.run({ $id: r.id, $sku: r.sku, $name: r.name, $category: r.category, $price: r.price, $quantity: r.quantity, $status: r.status });
  })(seedItems());
  return db;
}

const db = openDatabase(DB_PATH);
const selectAll = db.query('SELECT id, sku, name, category, price, quantity, status FROM items ORDER BY id');
const countRows = db.query('SELECT COUNT(*) AS n FROM items');

/**
 * Burns WORK_US of CPU on a monotonic clock: a known, tunable slowdown, so the detector's
 * sensitivity can be measured against an effect of a size we chose.
 */
function busyWork(us) {
  if (us <= 0) return;
  const end = Bun.nanoseconds() + us * 1000;
  while (Bun.nanoseconds() < end) { /* spin */ }
}

let cachedBody;
function itemsBody() {
  if (CACHE === 'on' && cachedBody !== undefined) return cachedBody;
  const body = JSON.stringify({ items: selectAll.all() });
  if (CACHE === 'on') cachedBody = body;
  return body;
}

const JSON_HEADERS = { 'Content-Type': 'application/json', 'X-Backend': 'orders-api' };
const json = (body, status = 200) => new Response(body, { status, headers: JSON_HEADERS });

const server = Bun.serve({
  hostname: HOST,
  port: PORT,
  fetch(req) {
    const { pathname } = new URL(req.url);
    if (req.method !== 'GET' && req.method !== 'HEAD') return json('{"error":"method not allowed"}', 405);
    if (pathname === '/api/order/all-items') {
      busyWork(WORK_US);
      return json(itemsBody());
    }
    if (pathname === '/health') {
      return json(JSON.stringify({ status: 'ok', items: countRows.get().n, cache: CACHE, workUs: WORK_US }));
    }
    return json(JSON.stringify({ error: `no route ${pathname}` }), 404);
  },
  error(err) {
    console.error(`orders-api: ${err?.stack || err}`);
    return json('{"error":"internal"}', 500);
  },
});

const size = Buffer.byteLength(JSON.stringify({ items: selectAll.all() }));
console.log(`orders-api ready on http://${server.hostname}:${server.port} cache=${CACHE} work_us=${WORK_US} db=${DB_PATH} items=${countRows.get().n} body=${size}B`);

const stop = () => { server.stop(true); db.close(); process.exit(0); };
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
