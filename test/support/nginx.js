// Starts a private nginx on a free loopback port serving a small JSON file; stopped by its PID.
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../../ci/subjects.js';
import { locate } from '../../ci/tools.js';
import { tempDir } from './temp.js';

/** Returns { url, port, stop() } once nginx answers. */
export async function startNginx() {
  const dir = tempDir('nginx');
  chmodSync(dir, 0o755); // nginx workers run as an unprivileged user and must read the files
  mkdirSync(join(dir, 'html'));
  writeFileSync(join(dir, 'html', 'item.json'), `${JSON.stringify({ id: 1, name: 'item', tags: ['a', 'b'] })}\n`);
  const port = await freePort();
  writeFileSync(join(dir, 'nginx.conf'), `worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/tmp; proxy_temp_path ${dir}/tmp; fastcgi_temp_path ${dir}/tmp; uwsgi_temp_path ${dir}/tmp; scgi_temp_path ${dir}/tmp;
  server { listen 127.0.0.1:${port}; root ${dir}/html; location / { add_header X-Backend nginx; } }
}
`);
  const child = spawn(locate('nginx').path, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], { stdio: 'ignore', detached: true });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i += 1) {
    try {
      await (await fetch(`${url}/item.json`)).arrayBuffer();
      break;
    } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 50));
  }
  const stop = () => new Promise((res) => {
    if (child.exitCode !== null) return res();
    child.once('exit', res);
    try { process.kill(-child.pid, 'SIGTERM'); } catch { res(); }
  });
  return { url, port, dir, stop, errorLog: () => (existsSync(join(dir, 'error.log')) ? readFileSync(join(dir, 'error.log'), 'utf8') : '') };
}
