// orders-api: the items route of seed 004 on Bun with an embedded SQLite database (items and their order lines) and an optional in-memory cache.
import { Database } from 'bun:sqlite';
import { seedItems, seedOrderLines } from './data.js';
import { busyWork, countedWork } from './work.js';

const PORT = Number.parseInt(process.env.PORT ?? '3001', 10);
const HOST = process.env.HOST || '127.0.0.1';
const CACHE = (process.env.CACHE || 'off').toLowerCase();
const WORK_US = Number(process.env.WORK_US || 0);
const WORK_ITERS = Number(process.env.WORK_ITERS || 0);
const DB_PATH = process.env.DB || ':memory:';
// Empty means the default, so a manifest can pass ${env.ORDER_LINES} through unset.
const ORDER_LINES = Number(process.env.ORDER_LINES || 1000);

function fail(message) {
  console.error(`orders-api: ${message}`);
  process.exit(2);
}
if (!Number.isInteger(PORT) || PORT < 0 || PORT > 65535) fail(`PORT=${process.env.PORT} is not a port number; use e.g. PORT=3001 (0 picks a free one)`);
if (CACHE !== 'on' && CACHE !== 'off') fail(`CACHE=${process.env.CACHE} must be "on" or "off"`);
if (!Number.isInteger(ORDER_LINES) || ORDER_LINES < 0) fail(`ORDER_LINES=${process.env.ORDER_LINES} must be a whole number >= 0`);
if (!Number.isFinite(WORK_US) || WORK_US < 0) fail(`WORK_US=${process.env.WORK_US} must be a number of microseconds >= 0`);
if (!Number.isInteger(WORK_ITERS) || WORK_ITERS < 0) fail(`WORK_ITERS=${process.env.WORK_ITERS} must be a whole number of steps >= 0`);

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
  db.exec(`CREATE TABLE IF NOT EXISTS order_lines (
    id INTEGER PRIMARY KEY,
    item_id INTEGER NOT NULL REFERENCES items(id),
    qty INTEGER NOT NULL,
    unit_price REAL NOT NULL
  )`);
  db.exec('CREATE INDEX IF NOT EXISTS order_lines_item ON order_lines (item_id, qty)');
  const insert = db.prepare('INSERT INTO items (id, sku, name, category, price, quantity, status) VALUES ($id, $sku, $name, $category, $price, $quantity, $status)');
  const insertLine = db.prepare('INSERT INTO order_lines (id, item_id, qty, unit_price) VALUES ($id, $item, $qty, $price)');
  db.transaction((rows, lines) => {
    db.exec('DELETE FROM order_lines');
    db.exec('DELETE FROM items');
    for (const r of rows) insert.run({ $id: r.id, $sku: r.sku, $name: r.name, $category: r.category, $price: r.price, $quantity: r.quantity, $status: r.status });
    for (const l of lines) insertLine.run({ $id: l.id, $item: l.itemId, $qty: l.qty, $price: l.unitPrice });
  })(seedItems(), seedOrderLines(ORDER_LINES));
  return db;
}

const db = openDatabase(DB_PATH);
// Stock on hand is what was received (items.quantity) less what the order lines took: summed on every uncached
// request, as an orders API computes availability, so the cache has real database work to save.
const selectAll = db.query(`SELECT i.id, i.sku, i.name, i.category, i.price,
    MAX(0, i.quantity - COALESCE(SUM(l.qty), 0)) AS quantity,
    CASE WHEN i.quantity - COALESCE(SUM(l.qty), 0) > 0 THEN i.status ELSE 'backorder' END AS status
  FROM items i LEFT JOIN order_lines l ON l.item_id = i.id
  GROUP BY i.id ORDER BY i.id`);
const countRows = db.query('SELECT COUNT(*) AS n FROM items');

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
      countedWork(WORK_ITERS);
      return json(itemsBody());
    }
    if (pathname === '/health') {
      return json(JSON.stringify({ status: 'ok', items: countRows.get().n, orderLines: ORDER_LINES, cache: CACHE, workUs: WORK_US, workIters: WORK_ITERS }));
    }
    return json(JSON.stringify({ error: `no route ${pathname}` }), 404);
  },
  error(err) {
    console.error(`orders-api: ${err?.stack || err}`);
    return json('{"error":"internal"}', 500);
  },
});

const size = Buffer.byteLength(JSON.stringify({ items: selectAll.all() }));
console.log(`orders-api ready on http://${server.hostname}:${server.port} cache=${CACHE} work_us=${WORK_US} work_iters=${WORK_ITERS} db=${DB_PATH} items=${countRows.get().n} order_lines=${ORDER_LINES} body=${size}B`);

const stop = () => { server.stop(true); db.close(); process.exit(0); };
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
