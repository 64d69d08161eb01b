// The chDB-over-HTTP fixture, run as its own process, spoken to by the real @clickhouse/client:
// what the services' CLICKHOUSE_URL path relies on (DDL, inserts, parameters, errors, ping).
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { createClient, ClickHouseError, type ClickHouseClient } from '@clickhouse/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { classifyClickhouseError } from '@llm/clickhouse';
import { startChdbHttp, type ManagedProcess } from '../support/split-stack.ts';

let fixture: { url: string; process: ManagedProcess };
let client: ClickHouseClient;
const db = `f_${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  fixture = await startChdbHttp(path.join(inject('runDir'), `chdb-http-${randomBytes(4).toString('hex')}`));
  client = createClient({ url: fixture.url, username: 'default', password: 'secret', clickhouse_settings: { date_time_input_format: 'best_effort' } });
  await client.command({ query: `CREATE DATABASE IF NOT EXISTS ${db}` });
  await client.command({ query: `CREATE TABLE ${db}.t (id UInt32, name String, tags Array(String), at DateTime64(3, 'UTC')) ENGINE = MergeTree ORDER BY id` });
});
afterAll(async () => {
  await client?.close();
  await fixture?.process.stop();
});

describe('chDB over HTTP', () => {
  it('when pinged, then the client sees success and GET /ping answers "Ok."', async () => {
    expect(await client.ping()).toEqual({ success: true });
    const r = await fetch(`${fixture.url}/ping`);
    expect(await r.text()).toBe('Ok.\n');
  });

  it('when rows are inserted as JSONEachRow and read with typed parameters, then the values round-trip', async () => {
    const tricky = "it's a \\ back\tslash\nand a newline";
    const ins = await client.insert({
      table: `${db}.t`,
      values: [
        { id: 1, name: tricky, tags: ['a', "b'c", 'd\\e'], at: '2025-07-01T12:34:56.789Z' },
        { id: 2, name: 'plain', tags: [], at: '2025-07-02 00:00:00' },
      ],
      format: 'JSONEachRow',
    });
    expect(ins.query_id).toBeTruthy();
    const rs = await client.query({
      query: `SELECT id, name, tags, toString(at) AS at_text FROM ${db}.t
              WHERE name = {name:String} AND hasAll(tags, {tags:Array(String)}) AND id IN {ids:Array(UInt32)} AND at >= {since:DateTime64(3)}`,
      query_params: { name: tricky, tags: ["b'c", 'd\\e'], ids: [1, 2, 3], since: '2025-07-01 12:34:56.789' },
      format: 'JSONEachRow',
    });
    expect(rs.query_id).toBeTruthy();
    expect(rs.response_headers['x-clickhouse-format']).toBe('JSONEachRow');
    expect(await rs.json()).toEqual([{ id: 1, name: tricky, tags: ['a', "b'c", 'd\\e'], at_text: '2025-07-01 12:34:56.789' }]);
  });

  it('when a query names its query_id and uses a setting, then both are honoured and the setting does not stick', async () => {
    const query_id = `q-${randomBytes(4).toString('hex')}`;
    const rs = await client.query({ query: "SELECT getSetting('max_threads') AS t", format: 'JSONEachRow', query_id, clickhouse_settings: { max_threads: 3 } });
    expect(rs.query_id).toBe(query_id);
    expect(rs.response_headers['x-clickhouse-query-id']).toBe(query_id);
    expect(await rs.json()).toEqual([{ t: 3 }]);
    const after = await client.query({ query: "SELECT getSetting('max_threads') AS t", format: 'JSONEachRow' });
    expect((await after.json<{ t: number }>())[0]!.t).not.toBe(3);
  });

  it('when the client names a database, then unqualified names resolve in it', async () => {
    const scoped = createClient({ url: fixture.url, database: db });
    try {
      const rs = await scoped.query({ query: 'SELECT count() AS n FROM t', format: 'JSONEachRow' });
      expect(await rs.json()).toEqual([{ n: '2' }]);
    } finally {
      await scoped.close();
    }
  });

  it('when a request body is gzip-compressed, then it is decompressed before it runs', async () => {
    const compressed = createClient({ url: fixture.url, compression: { request: true } });
    try {
      await compressed.insert({ table: `${db}.t`, values: [{ id: 3, name: 'zipped', tags: [], at: '2025-07-03 00:00:00' }], format: 'JSONEachRow' });
      const rs = await compressed.query({ query: `SELECT name FROM ${db}.t WHERE id = {id:UInt32}`, query_params: { id: 3 }, format: 'JSONEachRow' });
      expect(await rs.json()).toEqual([{ name: 'zipped' }]);
    } finally {
      await compressed.close();
    }
    const raw = await fetch(`${fixture.url}/?default_format=TSV`, { method: 'POST', headers: { 'Content-Encoding': 'gzip' }, body: gzipSync('SELECT 40 + 2') });
    expect(await raw.text()).toBe('42\n');
  });

  it('when a statement fails, then the client raises ClickHouseError with the server code and type, and the summary header is JSON', async () => {
    const syntax = await client.query({ query: 'SELEC 1' }).catch((e: unknown) => e);
    expect(syntax).toBeInstanceOf(ClickHouseError);
    expect(syntax).toMatchObject({ code: '62', type: 'SYNTAX_ERROR' });
    expect(classifyClickhouseError(syntax)).toBe('deterministic');
    const missing = await client.query({ query: `SELECT * FROM ${db}.nope` }).catch((e: unknown) => e);
    expect(missing).toMatchObject({ code: '60', type: 'UNKNOWN_TABLE' });
    const badRow = await client.insert({ table: `${db}.t`, values: [{ id: 'not a number', name: 'x', tags: [], at: '2025-01-01' }], format: 'JSONEachRow' }).catch((e: unknown) => e);
    expect(badRow).toBeInstanceOf(ClickHouseError);
    expect(classifyClickhouseError(badRow)).toBe('deterministic');
    const r = await fetch(`${fixture.url}/`, { method: 'POST', body: 'SELECT throwIf(1)' });
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.headers.get('x-clickhouse-exception-code')).toMatch(/^\d+$/);
    expect(await r.text()).toMatch(/^Code: \d+\. DB::Exception: .*\([A-Z_]+\) \(version [\d.]+\)\n$/s);
    // The summary carries the statement's own figures: five rows read, none written.
    const ok = await client.command({ query: 'SELECT number FROM numbers(5)' });
    expect(ok.summary).toMatchObject({ read_rows: '5', written_rows: '0' });
  });

  it('when requests arrive concurrently, then each gets its own answer', async () => {
    const answers = await Promise.all(Array.from({ length: 12 }, (_v, i) => client.query({ query: 'SELECT {i:UInt32} * 2 AS v', query_params: { i }, format: 'JSONEachRow' }).then((r) => r.json<{ v: string }>())));
    // UInt32 * 2 is a UInt64, which a server quotes in JSON.
    expect(answers.map((a) => Number(a[0]!.v))).toEqual(Array.from({ length: 12 }, (_v, i) => i * 2));
  });
});
