// A fresh accounts database on the test run's real Postgres, migrated, with the projector's own
// `applyEvent` (decide on the loaded state, run the projection's SQL): the projection SQL of each
// aggregate is tested once here, against what its `evolve` says the state becomes.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { inject } from 'vitest';
import type { AccountEvent, AccountEventType, Rejection } from '@llm/account-model';
import type { DecodedEvent } from '@llm/events';
import { migratePostgres, withTransaction, type Pool } from '@llm/postgres';
import { applyEvent } from '../../src/consumer/apply-event.ts';

const MIGRATIONS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../migrations');

export interface ProjectionDb {
  pool: Pool;
  /** Applies each event in order, each in its own transaction, as the projector does; returns the outcomes. */
  apply(...events: AccountEvent[]): Promise<Array<{ status: 'applied' } | Rejection>>;
  close(): Promise<void>;
}

export async function openProjectionDb(): Promise<ProjectionDb> {
  const serverUrl = inject('databaseUrl');
  const name = `proj_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Pool({ connectionString: serverUrl, max: 1 });
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
  // Dropping the database ends any connection the pool still holds: that is expected, not an error.
  pool.on('error', () => undefined);
  await migratePostgres(pool, MIGRATIONS);
  return {
    pool,
    async apply(...events) {
      const out: Array<{ status: 'applied' } | Rejection> = [];
      for (const e of events) {
        const decoded: DecodedEvent = { eventId: '', schemaVersion: 1, requestId: '', aggregateId: '', ...e } as DecodedEvent;
        out.push(await withTransaction(pool, (c) => applyEvent(c, decoded)));
      }
      return out;
    },
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
