// A WebSocket echo server on a loopback port (text frames back as sent) with GET /health, for k6 fixture captures.
// Usage: node test/support/ws-echo.js  (prints "listening 127.0.0.1:<port>"; stopped by its PID)
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';

// RFC 6455's fixed key suffix for Sec-WebSocket-Accept
const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

/** One server frame (unmasked, FIN set) of opcode `op` holding `payload`. */
function frame(op, payload) {
  const n = payload.length;
  const head = n < 126 ? Buffer.from([0x80 | op, n]) : Buffer.from([0x80 | op, 126, n >> 8, n & 255]);
  return Buffer.concat([head, payload]);
}

const server = createServer((req, res) => {
  res.writeHead(req.url === '/health' ? 200 : 404, { 'content-type': 'text/plain' });
  res.end(req.url === '/health' ? 'ok\n' : 'not found\n');
});

server.on('upgrade', (req, socket) => {
  const accept = createHash('sha1').update(`${req.headers['sec-websocket-key']}${GUID}`).digest('base64');
  socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
  let buf = Buffer.alloc(0);
  socket.on('error', () => {});
  socket.on('data', (chunk) => {
    buf = Buffer.concat([buf, chunk]);
    // client frames are masked; lengths of 126 take two more bytes, 127 eight
    while (buf.length >= 2) {
      const op = buf[0] & 0x0f;
      let len = buf[1] & 0x7f;
      let off = 2;
      if (len === 126) {
        if (buf.length < 4) return;
        len = buf.readUInt16BE(2);
        off = 4;
      } else if (len === 127) {
        if (buf.length < 10) return;
        len = Number(buf.readBigUInt64BE(2));
        off = 10;
      }
      const mask = buf[1] & 0x80 ? buf.subarray(off, off + 4) : null;
      if (mask) off += 4;
      if (buf.length < off + len) return;
      const payload = Buffer.from(buf.subarray(off, off + len));
      if (mask) for (let i = 0; i < len; i += 1) payload[i] ^= mask[i % 4];
      buf = buf.subarray(off + len);
      if (op === 0x8) {
        socket.end(frame(0x8, Buffer.alloc(0)));
        return;
      }
      socket.write(frame(op === 0x9 ? 0xa : op, payload));
    }
  });
});

server.listen(0, '127.0.0.1', () => console.log(`listening 127.0.0.1:${server.address().port}`));
