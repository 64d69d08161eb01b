// A fresh accounts database on the test run's real Postgres, migrated, with the projector's own
// `applyEvent` (decide on the loaded state, run the projection's SQL): the projection SQL of each
// aggregate is tested once here. Each test writes out, as a literal, the state the production
// loader (`loadState` of @llm/accounts-read) must return after each event of its history: what the
// projection stored, read back the way the projector reads it before its next decision.
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { expect, inject } from 'vitest';
import { type AccountEvent, type AccountEventType, type AggregateName, decide, type EventOf, loadState, type Rejection, type StateOf } from '@llm/account-model';
import type { DecodedEvent } from '@llm/events';
import { migratePostgres, withTransaction, type Pool } from '@llm/postgres';
import { applyEvent } from '../../src/consumer/apply-event.ts';

const MIGRATIONS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../migrations');

export interface ProjectionDb {
  pool: Pool;
  /** Applies each event in order, each in its own transaction, as the projector does; returns the outcomes. */
  apply(...events: AccountEvent[]): Promise<Array<{ status: 'applied' } | Rejection>>;
  /**
   * Applies one event of aggregate `name` as the projector does, after checking that its outcome is
   * the aggregate's `decide` on the state the production loader returns before it. Answers the
   * verdict ('ok' or the rejection's code) and the state the loader returns for the event after it.
   */
  step<N extends AggregateName>(name: N, e: AccountEvent): Promise<Step<N>>;
  /** Applies the migrations not applied yet (for a database opened at an earlier one). */
  migrate(): Promise<string[]>;
  close(): Promise<void>;
}

export interface Step<N extends AggregateName> { verdict: string; after: StateOf<N> }

/** `migratedUpTo`: open the database at that migration (its file name) and not beyond, to test the next ones. */
export async function openProjectionDb(opts: { migratedUpTo?: string } = {}): Promise<ProjectionDb> {
  const serverUrl = inject('databaseUrl');
  const name = `proj_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Pool({ connectionString: serverUrl, max: 1 });
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
  // Dropping the database ends any connection the pool still holds: that is expected, not an error.
  pool.on('error', () => undefined);
  if (opts.migratedUpTo === undefined) await migratePostgres(pool, MIGRATIONS);
  else {
    const upTo = opts.migratedUpTo;
    const dir = mkdtempSync(path.join(tmpdir(), 'migrations-'));
    for (const f of readdirSync(MIGRATIONS).filter((x) => x.endsWith('.sql') && x <= upTo)) copyFileSync(path.join(MIGRATIONS, f), path.join(dir, f));
    await migratePostgres(pool, dir);
    rmSync(dir, { recursive: true, force: true });
  }
  const apply: ProjectionDb['apply'] = async (...events) => {
    const out: Array<{ status: 'applied' } | Rejection> = [];
    for (const e of events) {
      const decoded: DecodedEvent = { eventId: '', schemaVersion: 1, requestId: '', aggregateId: '', ...e } as DecodedEvent;
      out.push(await withTransaction(pool, (c) => applyEvent(c, decoded)));
    }
    return out;
  };
  return {
    pool,
    apply,
    async step(name, e) {
      const event = e as unknown as EventOf<typeof name>;
      const decision = decide(name, event, await loadState(pool, name, event));
      const [outcome] = await apply(e);
      expect(outcome, e.type).toEqual(decision.status === 'accepted' ? { status: 'applied' } : decision);
      return { verdict: decision.status === 'accepted' ? 'ok' : decision.code, after: await loadState(pool, name, event) };
    },
    migrate: () => migratePostgres(pool, MIGRATIONS),
    async close() {
      await pool.end();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
      await admin.end();
    },
  };
}

type Envelope = Pick<AccountEvent, 'projectId' | 'organizationId' | 'actorId' | 'expectedVersion' | 'timeUs'>;

/** An accounts event as a command would append it now (envelope fields default to empty / no expectation). */
export const ev = <T extends AccountEventType>(type: T, payload: Extract<AccountEvent, { type: T }>['payload'], envelope: Partial<Envelope> = {}): AccountEvent =>
  ({ type, payload, projectId: '', organizationId: '', actorId: '', expectedVersion: 0, timeUs: Date.now() * 1000, ...envelope }) as AccountEvent;
