// A port nothing listens on right now, for a child process the test starts with PORT/MANAGEMENT_PORT:
// the operating system picks it (listen on 0) and it is released at once. A random number in a
// range can land on a port another process of the run already holds (EADDRINUSE in a child).
import { createServer } from 'node:net';

export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error('no port assigned'))));
    });
  });
}
