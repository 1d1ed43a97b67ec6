// A loopback HTTP server answering like GitHub's issue-comment and pull-list endpoints, for the comment poster's tests.
import { createServer } from 'node:http';

const json = (res, status, value, headers = {}) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(value));
};

/**
 * Starts the server on 127.0.0.1 with a free port. `tokens` maps a token to the user it stands for;
 * a user with `installation: true` behaves like GITHUB_TOKEN (GET /user answers 403, comments come from a Bot).
 * Returns { url, state, requests, close() }; state.comments is keyed "owner/repo#number".
 */
export async function startFakeGitHub({ tokens = {}, pulls = {} } = {}) {
  const state = { comments: new Map(), pulls: new Map(Object.entries(pulls)), nextId: 1000 };
  const requests = [];
  const commentsOf = (key) => {
    if (!state.comments.has(key)) state.comments.set(key, []);
    return state.comments.get(key);
  };
  let base;

  /** GitHub-style pagination: per_page (max 100) and page, with a Link header naming the next and last pages. */
  const paginate = (req, res, items, path, extra) => {
    const u = new URL(req.url, base);
    const perPage = Math.min(Number(u.searchParams.get('per_page')) || 30, 100);
    const page = Math.max(Number(u.searchParams.get('page')) || 1, 1);
    const last = Math.max(Math.ceil(items.length / perPage), 1);
    const link = (p) => {
      const q = new URLSearchParams({ ...extra, per_page: String(perPage), page: String(p) });
      return `<${base}${path}?${q}>`;
    };
    const links = [];
    if (page < last) links.push(`${link(page + 1)}; rel="next"`, `${link(last)}; rel="last"`);
    json(res, 200, items.slice((page - 1) * perPage, page * perPage), links.length ? { link: links.join(', ') } : {});
  };

  const readBody = (req) => new Promise((resolve) => {
    let text = '';
    req.on('data', (c) => { text += c; });
    req.on('end', () => resolve(text ? JSON.parse(text) : {}));
  });

  const server = createServer(async (req, res) => {
    const u = new URL(req.url, base);
    const body = req.method === 'GET' ? undefined : await readBody(req);
    requests.push({ method: req.method, path: u.pathname, query: Object.fromEntries(u.searchParams), body });
    const token = /^(?:token|bearer) (.+)$/i.exec(req.headers.authorization || '')?.[1];
    const who = tokens[token];
    if (!who) return json(res, 401, { message: 'Bad credentials' });
    const author = who.installation ? { login: 'github-actions[bot]', type: 'Bot' } : { login: who.login, type: who.type || 'User' };

    let m;
    if (req.method === 'GET' && u.pathname === '/user') {
      return who.installation ? json(res, 403, { message: 'Resource not accessible by integration' }) : json(res, 200, author);
    }
    if ((m = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/comments$/.exec(u.pathname))) {
      const key = `${m[1]}/${m[2]}#${m[3]}`;
      if (req.method === 'GET') return paginate(req, res, commentsOf(key), u.pathname, {});
      if (req.method === 'POST') {
        if (!who.canWrite) return json(res, 403, { message: 'Resource not accessible by integration' });
        const id = state.nextId++;
        const c = { id, body: body.body, user: author, html_url: `${base}/${m[1]}/${m[2]}/pull/${m[3]}#issuecomment-${id}` };
        commentsOf(key).push(c);
        return json(res, 201, c);
      }
    }
    if ((m = /^\/repos\/([^/]+)\/([^/]+)\/issues\/comments\/(\d+)$/.exec(u.pathname)) && req.method === 'PATCH') {
      if (!who.canWrite) return json(res, 403, { message: 'Resource not accessible by integration' });
      for (const [key, list] of state.comments) {
        const c = list.find((x) => x.id === Number(m[3]) && key.startsWith(`${m[1]}/${m[2]}#`));
        if (c) {
          c.body = body.body;
          return json(res, 200, c);
        }
      }
      return json(res, 404, { message: 'Not Found' });
    }
    if ((m = /^\/repos\/([^/]+)\/([^/]+)\/pulls$/.exec(u.pathname)) && req.method === 'GET') {
      const head = u.searchParams.get('head');
      const all = state.pulls.get(`${m[1]}/${m[2]}`) || [];
      const open = all.filter((p) => (u.searchParams.get('state') || 'open') === 'all' || p.state === (u.searchParams.get('state') || 'open'));
      const selected = head ? open.filter((p) => `${p.head.repo.owner.login}:${p.head.ref}` === head) : open;
      return paginate(req, res, selected, u.pathname, Object.fromEntries([...u.searchParams].filter(([k]) => k !== 'page' && k !== 'per_page')));
    }
    return json(res, 404, { message: 'Not Found' });
  });

  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${server.address().port}`;
  return {
    url: base,
    state,
    requests,
    /** Seeds a comment as if someone had written it earlier. */
    addComment(key, { body, login, type = 'User' }) {
      const c = { id: state.nextId++, body, user: { login, type }, html_url: `${base}/c` };
      commentsOf(key).push(c);
      return c;
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
