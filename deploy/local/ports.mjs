// Free-port and wait-for-port helpers for the local stack (no dependencies: runs before npm install).
import net from 'node:net';

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

export function isPortOpen(port, host = '127.0.0.1') {
  return new Promise((resolve) => {
    const s = net.connect({ port, host });
    s.once('connect', () => { s.destroy(); resolve(true); });
    s.once('error', () => resolve(false));
  });
}

export async function waitForPort(port, { timeoutMs = 60_000, isAlive = () => true, name = 'service' } = {}) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await isPortOpen(port)) return;
    if (!isAlive()) throw new Error(`${name} exited before it listened on port ${port}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${name} did not listen on port ${port} within ${timeoutMs} ms`);
}
