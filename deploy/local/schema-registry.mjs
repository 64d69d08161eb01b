// Local Confluent-compatible schema registry: Apicurio Registry from Maven Central, run with the
// machine's Java; its Confluent API is served under /apis/ccompat/v7. Used by `npm start` and the
// tests when SCHEMA_REGISTRY_URL is not set. No Docker, no downloads outside Maven Central:
// `mvn dependency:copy` of the app's `-all.tar.gz` distribution, unpacked once under .deps/.
// Karapace (the other candidate) is not published on PyPI, so it cannot be installed here.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { missingTools } from './prerequisites.mjs';
import { startSupervised } from './supervised-process.mjs';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(here, '../..');

// 3.0.x is the last line built for Java 17; 3.1+ needs Java 21, which Debian 12's apt does not have.
export const APICURIO_VERSION = '3.0.9';
const runnerJar = `apicurio-registry-app-${APICURIO_VERSION}-runner.jar`;
const registryDir = path.join(repoRoot, '.deps', `apicurio-registry-${APICURIO_VERSION}`);

export const checkPrerequisites = () => missingTools([['tar', ['--version'], 'tar']]);

/** Fetches and unpacks the registry once (idempotent) and returns the folder holding the runner jar. */
export function ensureSchemaRegistry({ log = console.log } = {}) {
  if (existsSync(path.join(registryDir, runnerJar))) return registryDir;
  log(`fetching Apicurio Registry ${APICURIO_VERSION} from Maven Central into ${path.relative(repoRoot, registryDir)} …`);
  // Unpacked beside the final folder and renamed at the end, so an interrupted fetch or a
  // concurrent one (two test runs) never leaves a half-filled folder that looks installed.
  const staging = `${registryDir}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  try {
    const artifact = `io.apicurio:apicurio-registry-app:${APICURIO_VERSION}:tar.gz:all`;
    const r = spawnSync('mvn', ['-q', '-B', 'dependency:copy', `-Dartifact=${artifact}`, `-DoutputDirectory=${staging}`], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    if (r.status !== 0) throw new Error(`mvn dependency:copy of ${artifact} failed (is Maven Central reachable?)`);
    const tarball = readdirSync(staging).find((f) => f.endsWith('.tar.gz'));
    if (!tarball) throw new Error(`mvn dependency:copy of ${artifact} left no tarball in ${staging}`);
    const t = spawnSync('tar', ['-xzf', tarball], { cwd: staging, encoding: 'utf8' });
    if (t.status !== 0) throw new Error(`unpacking ${tarball} failed: ${t.stderr}`);
    rmSync(path.join(staging, tarball));
    if (!existsSync(path.join(staging, runnerJar))) throw new Error(`${tarball} holds no ${runnerJar}`);
    try {
      renameSync(staging, registryDir);
    } catch (err) {
      if (!existsSync(path.join(registryDir, runnerJar))) throw err; // else another process finished first
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return registryDir;
}

/**
 * Starts the registry on 127.0.0.1:<port>. With kafkaBrokers its state lives in Kafka topics
 * (kafkasql-journal, kafkasql-snapshots, registry-events; like Confluent's `_schemas`), so schema ids
 * survive restarts for as long as the broker's data does; without, in an H2 file under dataDir.
 * Resolves once the Confluent API answers. Returns { url, pid, stop }.
 */
export async function startSchemaRegistry({ kafkaBrokers, port, dataDir, log = console.log, heap = '256m' }) {
  const dir = ensureSchemaRegistry({ log });
  mkdirSync(path.join(dataDir, 'tmp'), { recursive: true });
  const storage = kafkaBrokers
    ? [
      '-Dapicurio.storage.kind=kafkasql',
      `-Dapicurio.kafkasql.bootstrap.servers=${kafkaBrokers}`,
      // The default 5 s poll makes start-up (it waits to read its own bootstrap record) and every
      // write (it waits to read back its journal record) up to 5 s slower; 100 ms costs nothing.
      '-Dapicurio.kafkasql.consumer.poll.timeout=100',
    ]
    : ['-Dapicurio.storage.kind=sql', `-Dapicurio.datasource.url=jdbc:h2:file:${path.join(dataDir, 'registry')}`];
  const args = [
    // A small, single-user registry: the serial GC and C1 only keep start-up short on 2 cores.
    `-Xmx${heap}`, '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1',
    `-Djava.io.tmpdir=${path.join(dataDir, 'tmp')}`,
    '-Dquarkus.http.host=127.0.0.1',
    `-Dquarkus.http.port=${port}`,
    '-Dquarkus.http.access-log.enabled=false',
    `-Dapicurio.storage.snapshot.location=${dataDir}`,
    ...storage,
    '-jar', path.join(dir, runnerJar),
  ];
  const root = `http://127.0.0.1:${port}`;
  const url = `${root}/apis/ccompat/v7`;
  const proc = await startSupervised('java', args, {
    cwd: dataDir,
    ready: (isAlive) => waitForHttp([`${root}/health/ready`, `${url}/subjects`], { isAlive, timeoutMs: 90_000 }),
  });
  return { url, pid: proc.pid, stop: () => proc.stop() };
}

// Ready means the readiness probe is UP (for kafkasql: the journal is replayed) and the Confluent
// API answers. The port alone is not enough: the API answers while the journal is still being
// replayed, with a partial list of subjects (seen here on a cold start).
async function waitForHttp(urls, { timeoutMs, isAlive }) {
  const deadline = Date.now() + timeoutMs;
  const ok = (u) => fetch(u, { signal: AbortSignal.timeout(2_000) }).then(async (r) => { await r.arrayBuffer(); return r.ok; }, () => false);
  while (Date.now() < deadline) {
    if ((await Promise.all(urls.map(ok))).every(Boolean)) return;
    if (!isAlive()) throw new Error(`schema registry exited before it answered on ${urls.join(' and ')}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`schema registry did not answer on ${urls.join(' and ')} within ${timeoutMs} ms`);
}
