// Local single-node Apache Kafka 4.x (KRaft) from Maven Central jars, run with the machine's Java.
// Used by `npm start` and `npm test` when KAFKA_BROKERS is not set. No Docker, no downloads outside
// Maven Central: `mvn dependency:copy-dependencies` on deploy/kafka/pom.xml, cached under .deps/.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitForPort } from './ports.mjs';
import { missingTools } from './prerequisites.mjs';
import { startSupervised } from './supervised-process.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const kafkaDir = path.resolve(here, '../kafka');
export const repoRoot = path.resolve(here, '../..');

function kafkaVersion() {
  const pom = spawnSync('grep', ['-o', '<kafka.version>[^<]*', path.join(kafkaDir, 'pom.xml')], { encoding: 'utf8' });
  return pom.stdout.replace('<kafka.version>', '').trim() || 'unknown';
}

export const checkPrerequisites = () => missingTools();

/** Fetches the broker jars once (idempotent) and returns the folder holding them. */
export function ensureKafkaJars({ log = console.log } = {}) {
  const jarDir = path.join(repoRoot, '.deps', `kafka-${kafkaVersion()}`);
  if (existsSync(jarDir) && readdirSync(jarDir).some((f) => f.startsWith('kafka_2.13'))) return jarDir;
  log(`fetching Apache Kafka ${kafkaVersion()} jars from Maven Central into ${path.relative(repoRoot, jarDir)} …`);
  mkdirSync(jarDir, { recursive: true });
  const r = spawnSync('mvn', ['-q', '-B', '-f', path.join(kafkaDir, 'pom.xml'), 'dependency:copy-dependencies', `-DoutputDirectory=${jarDir}`], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (r.status !== 0) {
    rmSync(jarDir, { recursive: true, force: true });
    throw new Error('mvn dependency:copy-dependencies failed (is Maven Central reachable?)');
  }
  return jarDir;
}

/**
 * Starts a broker+controller on 127.0.0.1:<port> with its log dir under dataDir.
 * Formats the storage on first use. Resolves once the broker answers metadata and has a group
 * coordinator (`untilServing: false`: as soon as the port is open, for tests of that race).
 * Returns { brokers, stop }.
 */
/**
 * The broker JVM's collector and compilers. A local broker moves a few MB/s: the default G1 collector
 * and the two-tier JIT cost more CPU (their threads, the C2 compilations of the first minutes) than
 * the work itself. KAFKA_JVM_FLAGS replaces these (space-separated; `G1` for the JVM's defaults).
 */
export function kafkaJvmFlags(env = process.env) {
  const set = (env.KAFKA_JVM_FLAGS ?? '').trim();
  if (set === 'G1') return ['-XX:+UseG1GC'];
  if (set) return set.split(/\s+/);
  return ['-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-XX:CICompilerCount=1'];
}

export async function startKafka({ dataDir, port, controllerPort, log = console.log, heap = '768m', untilServing = true, jvmFlags = kafkaJvmFlags() }) {
  const jarDir = ensureKafkaJars({ log });
  const logDir = path.join(dataDir, 'logs');
  mkdirSync(dataDir, { recursive: true });
  const props = path.join(dataDir, 'server.properties');
  writeFileSync(props, [
    'process.roles=broker,controller',
    'node.id=1',
    `controller.quorum.voters=1@127.0.0.1:${controllerPort}`,
    `listeners=PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controllerPort}`,
    `advertised.listeners=PLAINTEXT://127.0.0.1:${port}`,
    'controller.listener.names=CONTROLLER',
    'listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
    `log.dirs=${logDir}`,
    'num.partitions=1',
    'auto.create.topics.enable=false',
    'offsets.topic.replication.factor=1',
    'offsets.topic.num.partitions=4',
    'transaction.state.log.replication.factor=1',
    'transaction.state.log.min.isr=1',
    'share.coordinator.state.topic.replication.factor=1',
    'share.coordinator.state.topic.min.isr=1',
    'group.initial.rebalance.delay.ms=0',
    'message.max.bytes=8388608',
    'replica.fetch.max.bytes=8388608',
    '',
  ].join('\n'));
  const cp = ['-cp', path.join(jarDir, '*')];
  const jvm = [`-Xmx${heap}`, `-Xms${heap}`, ...jvmFlags, `-Dlog4j2.configurationFile=${path.join(kafkaDir, 'log4j2.yaml')}`];
  if (!existsSync(path.join(logDir, 'meta.properties'))) {
    const clusterId = randomBytes(16).toString('base64url');
    const f = spawnSync('java', [...jvm, ...cp, 'kafka.tools.StorageTool', 'format', `--cluster-id=${clusterId}`, '-c', props], { encoding: 'utf8' });
    if (f.status !== 0) throw new Error(`kafka storage format failed: ${f.stderr || f.stdout}`);
  }
  const proc = await startSupervised('java', [...jvm, ...cp, 'kafka.Kafka', props], {
    ready: async (isAlive) => {
      await waitForPort(port, { name: 'kafka', isAlive, timeoutMs: 90_000 });
      if (untilServing) await waitForBroker(`127.0.0.1:${port}`, { isAlive, timeoutMs: 90_000 });
    },
  });
  return { brokers: `127.0.0.1:${port}`, pid: proc.pid, stop: () => proc.stop() };
}

/**
 * An open port is not a working broker: a fresh KRaft broker listens before it has registered with
 * its controller, and until then a topic create fails (no registered broker) and a group has no
 * coordinator. Waits until metadata lists a broker and the group coordinator answers (which makes
 * the broker create its offsets topic now rather than under the first consumer).
 */
async function waitForBroker(broker, { isAlive, timeoutMs }) {
  // kafkajs is imported here, not at the top: this module is loaded before `npm install` has run.
  const { Kafka, logLevel } = (await import('kafkajs')).default;
  (await import('../../packages/kafka/src/kafkajs-timer-clamp.mjs')).clampKafkajsTimers();
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (!isAlive()) throw new Error('kafka exited before it answered metadata');
    const admin = new Kafka({ clientId: 'local-stack-probe', brokers: [broker], logLevel: logLevel.NOTHING, connectionTimeout: 2_000, retry: { retries: 0 } }).admin();
    try {
      await admin.connect();
      const { brokers } = await admin.describeCluster();
      if (brokers.length === 0) throw new Error('no broker registered yet');
      await admin.fetchOffsets({ groupId: 'local-stack-probe', topics: [] });
      return;
    } catch (err) {
      last = err.message;
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`kafka did not answer metadata within ${timeoutMs} ms (${last})`);
}
