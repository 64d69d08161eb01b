// `npm run secrets:rotate` against the run's real Postgres: the key store (secret_keys) in a fresh,
// migrated database, the rotation function called directly with rings built in the test.
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { readWrappedKey } from '@llm/accounts-read';
import { SecretsKeyring } from '@llm/oidc';
import { migratePostgres, type Pool } from '@llm/postgres';
import { newDataKey, unwrapDataKey, wrapDataKey } from '@llm/vault';
import { shredKey, storeWrappedKey } from '../src/vault/adapters/secret-key-store.ts';
import { rotateSecretKeys, type RotateFailure } from '../src/vault/secrets-rotate.ts';

const MIGRATIONS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../projector-accounts/migrations');

const A = randomBytes(32);
const B = randomBytes(32);
const ringA = new SecretsKeyring([A]);
const ringB = new SecretsKeyring([B]);
const ringBA = new SecretsKeyring([B, A]);
const ringUnknown = new SecretsKeyring([randomBytes(32)]);

interface Stored { ownerId: string; dataKey: Buffer }

let admin: pg.Pool;
let pool: Pool;
let dbName: string;

beforeAll(async () => {
  const serverUrl = inject('databaseUrl');
  dbName = `rotate_${randomBytes(6).toString('hex')}`;
  admin = new pg.Pool({ connectionString: serverUrl, max: 1 });
  await admin.query(`CREATE DATABASE ${dbName}`);
  const url = new URL(serverUrl);
  url.pathname = `/${dbName}`;
  // Room for the rotation and the live traffic beside it.
  pool = new pg.Pool({ connectionString: url.toString(), max: 4 });
  pool.on('error', () => undefined);
  await migratePostgres(pool, MIGRATIONS);
});

afterAll(async () => {
  await pool?.end();
  await admin?.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
  await admin?.end();
});

beforeEach(async () => {
  await pool.query('TRUNCATE secret_keys');
});

/** A secret's key-store row as the command side writes it; returns what it must open to. */
async function createKey(ring: SecretsKeyring, known: Map<string, Stored>): Promise<string> {
  const secretId = randomUUID();
  const ownerId = randomUUID();
  const dataKey = newDataKey();
  await storeWrappedKey(pool, ownerId, secretId, wrapDataKey(ring, dataKey, { ownerId, secretId }));
  known.set(secretId, { ownerId, dataKey });
  return secretId;
}

const wrappedKeys = async (): Promise<Map<string, string>> => {
  const r = await pool.query<{ secret_id: string; wrapped_key: string }>('SELECT secret_id::text, wrapped_key FROM secret_keys');
  return new Map(r.rows.map((row) => [row.secret_id, row.wrapped_key]));
};

/** Every row of `expected` is there and opens with the new key alone, to its own data key. */
async function expectAllOpenWithBAlone(expected: Map<string, Stored>): Promise<void> {
  const rows = await wrappedKeys();
  expect([...rows.keys()].sort()).toEqual([...expected.keys()].sort());
  for (const [secretId, { ownerId, dataKey }] of expected) {
    expect(unwrapDataKey(ringB, rows.get(secretId)!, { ownerId, secretId }).equals(dataKey)).toBe(true);
  }
}

describe('secrets:rotate', () => {
  it('when keys are under A and one under an unknown key, then ring [B, A] re-wraps the A ones under B, reports the other, and a second run re-wraps nothing', async () => {
    const underA = new Map<string, Stored>();
    for (let i = 0; i < 7; i++) await createKey(ringA, underA);
    const unknown = new Map<string, Stored>();
    const unknownId = await createKey(ringUnknown, unknown);
    const unknownBefore = (await wrappedKeys()).get(unknownId);

    const failures: RotateFailure[] = [];
    const progress: Array<[number, number]> = [];
    let total = -1;
    const r = await rotateSecretKeys(pool, ringBA, { batchSize: 3 }, {
      onStart: (t) => { total = t; },
      onProgress: (done, t) => { progress.push([done, t]); },
      onFailure: (f) => { failures.push(f); },
    });

    expect(total).toBe(8);
    expect(progress.at(-1)).toEqual([8, 8]);
    expect(r).toMatchObject({ activeKeyId: ringB.currentKeyId, dryRun: false, rewrapped: 7, alreadyCurrent: 0, skipped: 0, failed: 1, onlyActiveInUse: false });
    expect(r.failures).toEqual([{ secretId: unknownId, ownerId: unknown.get(unknownId)!.ownerId, reason: 'unknown_key' }]);
    expect(failures).toEqual(r.failures);
    expect(r.keysInUse.sort((x, y) => x.count - y.count)).toEqual([{ keyId: ringUnknown.currentKeyId, count: 1 }, { keyId: ringB.currentKeyId, count: 7 }]);

    const rows = await wrappedKeys();
    expect(rows.get(unknownId)).toBe(unknownBefore);
    rows.delete(unknownId);
    for (const [secretId, { ownerId, dataKey }] of underA) {
      expect(unwrapDataKey(ringB, rows.get(secretId)!, { ownerId, secretId }).equals(dataKey)).toBe(true);
    }
    // Nothing of a data key is printed in what the command reports.
    const report = JSON.stringify(r);
    for (const { dataKey } of underA.values()) expect(report).not.toContain(dataKey.toString('base64url'));

    const again = await rotateSecretKeys(pool, ringBA, { batchSize: 3 });
    expect(again).toMatchObject({ rewrapped: 0, alreadyCurrent: 7, skipped: 0, failed: 1 });
    const after = await wrappedKeys();
    after.delete(unknownId);
    expect(after).toEqual(rows);
  });

  it('when it is a dry run, then it counts what it would do and writes nothing', async () => {
    const known = new Map<string, Stored>();
    for (let i = 0; i < 4; i++) await createKey(ringA, known);
    await createKey(ringBA, known);
    const before = await wrappedKeys();

    const r = await rotateSecretKeys(pool, ringBA, { dryRun: true, batchSize: 2 });

    expect(r).toMatchObject({ dryRun: true, rewrapped: 4, alreadyCurrent: 1, failed: 0, onlyActiveInUse: false });
    expect(await wrappedKeys()).toEqual(before);
  });

  it('when secrets are created, read and deleted while it runs, then nothing deleted comes back, nothing created is lost, reads keep working, and every row opens with B alone', async () => {
    const live = new Map<string, Stored>();
    for (let i = 0; i < 60; i++) await createKey(ringA, live);
    const deleted = new Set<string>();
    const remove = async (secretId: string) => {
      const stored = live.get(secretId);
      if (!stored) return;
      live.delete(secretId);
      deleted.add(secretId);
      await shredKey(pool, stored.ownerId, secretId);
    };

    // Deterministic races: in each batch, after the rotation read it and before it writes, one row
    // it is about to re-wrap is deleted and a new secret is created (by a process already on [B, A]).
    let racedDeletes = 0;
    const onBatchRead = async (rows: ReadonlyArray<{ secretId: string; wrappedKey: string }>) => {
      const victim = rows.find((row) => live.has(row.secretId) && row.wrappedKey.split('.')[1] === ringA.currentKeyId);
      if (victim) { await remove(victim.secretId); racedDeletes++; }
      await createKey(ringBA, live);
    };

    // Free-running traffic beside it: creates, deletes and reads that must keep opening.
    let running = true;
    let reads = 0;
    const traffic = (async () => {
      for (let i = 0; running; i++) {
        await createKey(ringBA, live);
        const ids = [...live.keys()];
        if (i % 3 === 0) await remove(ids[(i * 7) % ids.length]!);
        const readId = ids[(i * 13) % ids.length]!;
        const stored = live.get(readId);
        const wrapped = await readWrappedKey(pool, stored?.ownerId ?? '', readId);
        if (wrapped === undefined) expect(deleted.has(readId)).toBe(true);
        else expect(unwrapDataKey(ringBA, wrapped, { ownerId: stored!.ownerId, secretId: readId }).equals(stored!.dataKey)).toBe(true);
        reads++;
      }
    })();

    let r;
    try {
      r = await rotateSecretKeys(pool, ringBA, { batchSize: 4 }, { onBatchRead });
    } finally {
      running = false;
      await traffic;
    }

    expect(racedDeletes).toBeGreaterThan(0);
    expect(reads).toBeGreaterThan(0);
    expect(r.failed).toBe(0);
    // Every row deleted under its feet lost the compare-and-set instead of being written back.
    expect(r.skipped).toBeGreaterThanOrEqual(racedDeletes);
    const rows = await wrappedKeys();
    for (const secretId of deleted) expect(rows.has(secretId)).toBe(false);
    await expectAllOpenWithBAlone(live);
    expect(r.onlyActiveInUse).toBe(true);
  });
});
