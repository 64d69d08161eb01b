// Headless initialisation (issue 29): INIT_ORG_NAME, INIT_PROJECT_NAME, INIT_USER_EMAIL and
// INIT_API_KEY create the account at start through the command path (an accounts.account.provisioned
// event on the accounts topic, applied by projector-accounts), and a restart with the same settings
// changes nothing. Started twice for real, on the same topics and database; a restart whose settings
// contradict what exists fails with a message saying which.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '@llm/config';
import { createLogger } from '@llm/logging';
import { allInOneConfig, startAllInOne, type AllInOne } from '@llm/service-all-in-one';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const hex = (n: number): string => randomBytes(n).toString('hex');
const email = `ops-${hex(4)}@init.example.com`;
const key = `Init${hex(2)}.${hex(32)}`;
const INIT = { INIT_ORG_NAME: 'Acme Observability', INIT_PROJECT_NAME: 'Production', INIT_USER_EMAIL: email, INIT_API_KEY: key };

let first: TestApp;
let firstStopped = false;
let db: pg.Client;

/** The same deployment started again (same topics, database, ClickHouse and secrets) with these INIT_*. */
async function restart(init: Record<string, string>): Promise<AllInOne> {
  const parsed = parseConfig(allInOneConfig, {
    PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent', KAFKA_BROKERS: first.kafkaBrokers, KAFKA_TOPIC_PREFIX: first.topicPrefix,
    KAFKA_SPANS_PARTITIONS: '3', DATABASE_URL: first.databaseUrl, CLICKHOUSE_DATA_DIR: first.clickhouse.dataDir, ADMIN_TOKEN: first.adminToken,
    SHUTDOWN_DRAIN_MS: '0', OTLP_HTTP_PORT: '0', OTLP_GRPC_PORT: '0', ...first.secrets, ...init,
  });
  if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
  return startAllInOne(parsed.config, createLogger({ name: 'test', level: parsed.config.LOG_LEVEL }));
}

/** What the read model holds: the account rows of the e-mail, and every event applied so far. */
async function snapshot() {
  const r = await db.query<{ users: string; orgs: string; projects: string; keys: string; events: string }>(
    `SELECT (SELECT count(*) FROM users WHERE lower(email) = lower($1)) AS users,
            (SELECT count(*) FROM organizations o JOIN users u ON u.id = o.owner_id WHERE lower(u.email) = lower($1)) AS orgs,
            (SELECT count(*) FROM projects p JOIN organizations o ON o.id = p.organization_id JOIN users u ON u.id = o.owner_id WHERE lower(u.email) = lower($1)) AS projects,
            (SELECT count(*) FROM api_keys k JOIN users u ON u.id = k.user_id WHERE lower(u.email) = lower($1)) AS keys,
            (SELECT count(*) FROM events) AS events`, [email]);
  return r.rows[0]!;
}

const profile = (base: string) => fetch(`${base}/api/profile`, { headers: { Authorization: `ApiKey ${key}` } });

beforeAll(async () => {
  first = await startTestApp(INIT);
  db = new pg.Client({ connectionString: first.databaseUrl });
  await db.connect();
});
afterAll(async () => {
  await db?.end();
  if (!firstStopped) await first?.stop();
});

describe('headless initialisation', () => {
  it('when the app starts with INIT_*, then the user, organization, project and key exist and the key works at once', async () => {
    const me = await profile(first.baseUrl);
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ email, username: email.split('@')[0] });
    const current = await fetch(`${first.baseUrl}/projects/current`, { headers: { Authorization: `ApiKey ${key}` } });
    expect(await current.json()).toMatchObject({ organization_name: 'Acme Observability', project_name: 'Production' });
    // Through the command path: the account's event was applied by the projector, like the admin API's.
    const events = await db.query<{ type: string }>(`SELECT type FROM events WHERE type = 'accounts.account.provisioned' AND request_id LIKE 'init-%'`);
    expect(events.rows).toEqual([{ type: 'accounts.account.provisioned' }]);
    expect(await snapshot()).toEqual({ users: '1', orgs: '1', projects: '1', keys: '1', events: expect.any(String) });
  });

  it('when the app is started again with the same INIT_*, then nothing is appended and the same key still works', async () => {
    const before = await snapshot();
    const ids = await (await profile(first.baseUrl)).json() as { id: string };
    await first.stop();
    firstStopped = true;
    const again = await restart(INIT);
    try {
      expect(await snapshot()).toEqual(before);
      const me = await profile(`http://127.0.0.1:${again.port}`);
      expect(me.status).toBe(200);
      expect(await me.json()).toMatchObject({ id: ids.id, email });
    } finally {
      await again.stop();
    }
  });

  it('when it is started with another INIT_API_KEY for the same user, then the start fails saying so, and nothing is appended', async () => {
    const before = await snapshot();
    await expect(restart({ ...INIT, INIT_API_KEY: `Other${hex(1)}x.${hex(32)}` })).rejects.toThrow(/INIT_USER_EMAIL .* exists, but INIT_API_KEY is not one of its keys/);
    await expect(restart({ ...INIT, INIT_PROJECT_NAME: 'Staging' })).rejects.toThrow(/not INIT_ORG_NAME 'Acme Observability', INIT_PROJECT_NAME 'Staging'/);
    expect(await snapshot()).toEqual(before);
  });

  it('when only some INIT_* are set, then the configuration is refused naming the missing ones', async () => {
    await expect(restart({ INIT_USER_EMAIL: email })).rejects.toThrow(/INIT_ORG_NAME: required when any of/);
  });
});
