// The chDB-over-HTTP fixture as a process of its own (see chdb-http-server.ts):
//   node --import tsx test/support/chdb-http-main.ts <data-dir> [port]
// It prints one JSON line `{"port":…}` once it listens, and stops on SIGTERM/SIGINT.
import path from 'node:path';
import { startChdbHttpServer } from './chdb-http-server.ts';

const [dataDir, port] = process.argv.slice(2);
if (!dataDir) {
  process.stderr.write('usage: chdb-http-main.ts <data-dir> [port]\n');
  process.exit(2);
}
const server = await startChdbHttpServer({ dataDir: path.resolve(dataDir), port: Number(port ?? 0), host: process.env.HOST ?? '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ port: server.port })}\n`);
const stop = (): void => {
  server.close().then(() => process.exit(0), () => process.exit(1));
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
