// `npm run ops`: the CLI runs as a child process, as an operator runs it, against the run's real
// Kafka and an all-in-one stack under a fresh topic prefix (so every listing is this file's alone):
// topics and lag show a group made here, the DLQ commands show and re-drive dead letters put here,
// events shows the history of an account created here; wrong command lines exit 2, an unreachable
// broker exits 1 within its time box, and every --json answer is one parseable document.
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeEvent, topicsFor, type Topics } from '@llm/events';
import { createKafkaClient, sendToDlq, type KafkaClient, type Producer } from '@llm/kafka';
import { createAccount, eventually } from '@llm/testing';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const MAIN = path.resolve(import.meta.dirname, '../../services/ops-cli/src/main.ts');
const id = randomBytes(4).toString('hex');
let t: TestApp;
let kafka: KafkaClient;
let producer: Producer;
let topics: Topics;

// Each CLI run is a process start and a Kafka session (reads add a consumer-group join): several
// per test outgrow the default budget on a loaded machine.
const SLOW = 240_000;

interface Run { code: number | null; stdout: string; stderr: string; ms: number }

function ops(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const t0 = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], {
      env: { ...process.env, KAFKA_BROKERS: t.kafkaBrokers, KAFKA_TOPIC_PREFIX: t.topicPrefix, LOG_LEVEL: '', CLICKHOUSE_URL: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, ms: Date.now() - t0 }));
  });
}

async function opsJson(args: string[], env: Record<string, string> = {}): Promise<any> {
  const r = await ops([...args, '--json'], env);
  if (r.code !== 0) throw new Error(`ops ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

beforeAll(async () => {
  t = await startTestApp();
  topics = topicsFor({ prefix: t.topicPrefix, spansPartitions: 3, accountsPartitions: 1, spansRetentionMs: -1, dlqRetentionMs: -1 });
  kafka = await createKafkaClient({ brokers: [t.kafkaBrokers], clientId: 'ops-cli-test' });
  producer = await kafka.producer();
});
afterAll(async () => { await producer?.close(); await t?.stop(); });

describe('ops CLI', () => {
  it('when topics and lag are asked for, then they show this environment\'s topics and a group committed here, with its lag', async () => {
    await createAccount(t.baseUrl, t.adminToken);
    const group = `ops-test.${id}`;
    const admin = await kafka.admin();
    try { await admin.setCommittedOffsets(group, topics.accounts, new Map([[0, 0n]])); } finally { await admin.close(); }

    const listed = await opsJson(['topics']);
    expect(listed.topics.every((x: { topic: string }) => x.topic.startsWith(t.topicPrefix))).toBe(true);
    const accounts = listed.topics.find((x: { topic: string }) => x.topic === topics.accounts);
    const spans = listed.topics.find((x: { topic: string }) => x.topic === topics.spans);
    expect(accounts.partitions).toBe(1);
    expect(accounts.watermarks[0].high).toBeGreaterThan(0);
    expect(spans.partitions).toBe(3);

    const one = await opsJson(['lag', '--group', group]);
    expect(one.groups).toEqual([{ group, lag: accounts.watermarks[0].high, topics: [{ topic: topics.accounts, lag: accounts.watermarks[0].high, partitions: [{ partition: 0, committed: 0, high: accounts.watermarks[0].high, lag: accounts.watermarks[0].high }] }] }]);
    const all = await opsJson(['lag']);
    expect(all.groups.map((g: { group: string }) => g.group)).toContain(group);

    const text = await ops(['lag', '--group', group]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(new RegExp(`${group.replace(/\./g, '\\.')}\\s+${topics.accounts.replace(/\./g, '\\.')}\\s+0\\s+0\\s+\\d+\\s+\\d+`));

    const missing = await ops(['lag', '--group', `nobody.${id}`, '--json']);
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stdout).error.code).toBe('group_not_found');
  }, SLOW);

  it('when dead letters are put in the accounts DLQ, then list counts them, inspect shows why with the payload decoded, and redrive re-appends them', async () => {
    const dlq = topics.dlq(topics.accounts);
    const key = `ops-test:${id}`;
    const garbage = Buffer.from([0xff, 0x01, 0x02, 0x03]);
    const event = encodeEvent('accounts.session.revoked', { sid: `sid-${id}`, user_id: randomUUID(), expires_at_us: Date.now() * 1000 + 3_600_000_000 }, { aggregateId: key });
    await sendToDlq(producer, dlq, { topic: topics.accounts, partition: 0, offset: 42n, key, value: garbage, timestampMs: Date.now() }, `undecodable envelope: test ${id}`);
    await sendToDlq(producer, dlq, { topic: topics.accounts, partition: 0, offset: 43n, key, value: event, timestampMs: Date.now() }, `refused: test ${id}`);

    const listed = await opsJson(['dlq', 'list']);
    expect(listed.dlqs).toContainEqual({ topic: dlq, origin: topics.accounts, records: 2, not_redriven: 2 });

    const inspected = await opsJson(['dlq', 'inspect', 'accounts']);
    expect(inspected.topic).toBe(dlq);
    expect(inspected.records).toHaveLength(2);
    const [first, second] = inspected.records;
    expect(first).toMatchObject({ offset: 0, key, reason: `undecodable envelope: test ${id}`, origin: { topic: topics.accounts, partition: 0, offset: '42' }, value: { kind: 'binary', base64: garbage.toString('base64') } });
    expect(second).toMatchObject({ offset: 1, reason: `refused: test ${id}`, value: { kind: 'event', event: { type: 'accounts.session.revoked', aggregate_id: key, payload: { sid: `sid-${id}` } } } });

    const page = await opsJson(['dlq', 'inspect', dlq, '--offset', '1', '--limit', '1']);
    expect(page.records.map((r: { offset: number }) => r.offset)).toEqual([1]);
    const text = await ops(['dlq', 'inspect', 'accounts', '--limit', '1']);
    expect(text.stdout).toContain(`reason: undecodable envelope: test ${id}`);

    // The CLI's reads leave no consumer group behind for `ops lag` to list.
    const admin = await kafka.admin();
    try { expect((await admin.listGroups()).filter((g) => g.startsWith('ops-cli.read.'))).toEqual([]); } finally { await admin.close(); }

    const redriven = await opsJson(['dlq', 'redrive', 'accounts']);
    expect(redriven).toEqual({ topic: topics.accounts, dlq_topic: dlq, redriven: 2, skipped: 0, total: 2 });
    // The re-appended garbage is in the accounts topic again (and the projector sets it aside again).
    const history = await opsJson(['events', key]);
    expect(history.undecodable).toHaveLength(1);
    expect(history.events.map((e: { type: string }) => e.type)).toEqual(['accounts.session.revoked']);
    const after = await eventually(async () => (await opsJson(['dlq', 'list'])).dlqs.find((d: { topic: string }) => d.topic === dlq), (d) => d.records === 3, 30_000);
    expect(after).toEqual({ topic: dlq, origin: topics.accounts, records: 3, not_redriven: 1 });
  }, SLOW);

  it('when events are asked for an account created here, then its accounts events come decoded with time, type and payload', async () => {
    const acc = await createAccount(t.baseUrl, t.adminToken);
    const r = await opsJson(['events', `user:${acc.email}`]);
    expect(r.topic).toBe(topics.accounts);
    expect(r.events.length).toBeGreaterThan(0);
    const provisioned = r.events.find((e: { type: string }) => e.type === 'accounts.account.provisioned');
    expect(provisioned.payload.user.email).toBe(acc.email);
    expect(Date.parse(provisioned.time)).toBeGreaterThan(Date.now() - 600_000);
    const text = await ops(['events', `user:${acc.email}`]);
    expect(text.stdout).toMatch(/accounts\.account\.provisioned/);
    const none = await opsJson(['events', `user:nobody-${id}@example.com`]);
    expect(none.events).toEqual([]);
  }, SLOW);

  it('when the span read model is replayed, then the running server rebuilds it and the CLI reports the result', async () => {
    const r = await opsJson(['replay', 'spans'], { BASE_URL: t.baseUrl, ADMIN_TOKEN: t.adminToken });
    expect(r).toMatchObject({ read_model: 'spans', via: 'server' });
    expect(typeof r.records).toBe('number');
    const accounts = await ops(['replay', 'accounts']);
    expect(accounts.code).toBe(2);
    expect(accounts.stderr).toMatch(/no replay command/);
  });

  it('when the command line is wrong, then it exits 2 with the usage, and with --json an error document', async () => {
    const r = await ops(['frobnicate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown command 'frobnicate'/);
    expect(r.stderr).toMatch(/Usage: npm run ops/);
    const j = await ops(['dlq', 'inspect', '--json']);
    expect(j.code).toBe(2);
    expect(JSON.parse(j.stdout)).toEqual({ error: { kind: 'usage', code: 'usage', message: "'dlq inspect' needs <topic>" } });
  });

  it('when the broker is unreachable, then it exits 1 within its time box with one line', async () => {
    // The process start alone is measured first, so the bound holds on a loaded machine: without the
    // time box the admin client would retry for a minute.
    const start = await ops(['--help']);
    const r = await ops(['topics', '--json'], { KAFKA_BROKERS: `127.0.0.1:${await closedPort()}`, OPS_CONNECT_TIMEOUT_MS: '2000' });
    expect(r.code).toBe(1);
    expect(r.ms).toBeLessThan(start.ms * 2 + 2_000 + 5_000);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^ops: Kafka did not answer/);
    expect(JSON.parse(r.stdout).error.code).toBe('kafka_unreachable');
  }, SLOW);
});
