// Echo backend for the gateways suite: says which backend answered, so load-balancing spread is measurable.
const name = process.env.BACKEND_NAME || 'backend';
const port = Number(process.env.PORT || 8081);
const hostname = process.env.HOST || '127.0.0.1';

const server = Bun.serve({
  port,
  hostname,
  // Bun's default 10 s idle timeout would close kept-alive upstream connections of quiet gateways.
  idleTimeout: 120,
  fetch(req) {
    const url = new URL(req.url);
    const body = JSON.stringify({ backend: name, method: req.method, path: url.pathname + url.search });
    return new Response(body, {
      headers: { 'content-type': 'application/json', 'x-backend': name },
    });
  },
});

console.log(`backend ${name} listening on http://${server.hostname}:${server.port}`);
