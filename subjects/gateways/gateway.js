// Bun gateway: round robin over the upstreams with Bun.serve and fetch (the seed's BunGate role).
const upstreams = (process.env.UPSTREAMS || '')
  .split(',')
  .map((s) => s.trim().replace(/\/+$/, ''))
  .filter(Boolean);
if (!upstreams.length) {
  console.error('gateway: set UPSTREAMS to a comma-separated list of backend URLs, e.g. http://127.0.0.1:8081,http://127.0.0.1:8082');
  process.exit(2);
}
const port = Number(process.env.PORT || 3000);
const hostname = process.env.HOST || '127.0.0.1';

let next = 0;
let upstreamErrors = 0;

// Hop-by-hop headers describe one connection, not the message, so they must not be forwarded.
const HOP = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer'];

const server = Bun.serve({
  port,
  hostname,
  idleTimeout: 120,
  async fetch(req) {
    const url = new URL(req.url);
    if (url.pathname === '/__gateway/stats') {
      return Response.json({ upstreams, upstreamErrors });
    }
    const upstream = upstreams[next];
    next = (next + 1) % upstreams.length;
    const headers = new Headers(req.headers);
    for (const h of HOP) headers.delete(h);
    headers.delete('host');
    try {
      // Bun's fetch keeps a pool of kept-alive connections per origin, so upstream connections are reused.
      const res = await fetch(upstream + url.pathname + url.search, {
        method: req.method,
        headers,
        body: req.method === 'GET' || req.method === 'HEAD' ? undefined : req.body,
        redirect: 'manual',
        decompress: false,
      });
      const out = new Headers(res.headers);
      for (const h of HOP) out.delete(h);
      return new Response(res.body, { status: res.status, statusText: res.statusText, headers: out });
    } catch (e) {
      upstreamErrors += 1;
      return new Response(JSON.stringify({ error: 'bad gateway', upstream, reason: String(e?.message || e) }), {
        status: 502,
        headers: { 'content-type': 'application/json' },
      });
    }
  },
});

console.log(`gateway listening on http://${server.hostname}:${server.port}, round robin over ${upstreams.join(' ')}`);
