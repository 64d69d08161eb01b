// `npm run secrets:rotate [-- --dry-run]`: first seals SSO client secrets still sealed directly
// under the ring again under their provider's data key (one accounts event each, see sso-reseal.ts),
// then re-wraps every data key under the active (first) key of SECRETS_KEY, with a progress bar,
// then says which key ids are still in use so the operator knows when an old key may leave the
// ring (docs/operations.md, Rotating the secrets key ring).
// The only reader of process.env for it. Exit codes: 0 done, 1 a row failed or the run did,
// 2 usage. Prints counts, secret ids and key ids — never key material or secret values.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import cliProgress from 'cli-progress';
import { envFragments, parseConfig } from '@llm/config';
import { createLogger } from '@llm/logging';
import { secretsKeyEnv } from '@llm/oidc';
import { openPostgres } from '@llm/postgres';
import { connectKafka, exitOnBadConfig } from '@llm/runtime';
import { AccountAppender } from './accounts/adapters/account-appender.ts';
import { AccountCommands } from './accounts/adapters/account-commands.ts';
import { rotateSecretKeys, type RotateFailure } from './vault/secrets-rotate.ts';
import { resealProviderSecrets, type ResealFailure } from './vault/sso-reseal.ts';

const args = process.argv.slice(2);
const unknown = args.filter((a) => a !== '--dry-run');
if (unknown.length > 0) {
  console.error('Usage: npm run secrets:rotate [-- --dry-run]');
  process.exit(2);
}
const dryRun = args.includes('--dry-run');

// Defaults of `npm start`'s embedded stack, as `npm run redrive` has: its Postgres and broker, and
// the key ring it persisted (edit that file to rotate locally). Set variables always win.
const set = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => Boolean(e[1])));
const localKeyFile = path.join(set.DATA_DIR ?? '.data', 'secrets-key');
const env: Record<string, string> = {
  DATABASE_URL: `postgres://postgres:postgres@127.0.0.1:${set.POSTGRES_LOCAL_PORT ?? '15432'}/postgres`,
  KAFKA_BROKERS: `127.0.0.1:${set.KAFKA_LOCAL_PORT ?? '19092'}`,
  ...(existsSync(localKeyFile) ? { SECRETS_KEY: readFileSync(localKeyFile, 'utf8').trim() } : {}),
  ...set,
};
const config = exitOnBadConfig(parseConfig(envFragments.postgres.extend(envFragments.kafka.shape).extend(secretsKeyEnv.shape), env));
const ring = config.SECRETS_KEY;

const pool = openPostgres(config.DATABASE_URL, { max: 2 });
const bar = new cliProgress.SingleBar(
  { format: `${dryRun ? 'checking' : 're-wrapping'} data keys under ${ring.currentKeyId} [{bar}] {percentage}% | {value}/{total} keys` },
  cliProgress.Presets.shades_classic,
);
let barOn = false;
const stopBar = () => { if (barOn) { bar.stop(); barOn = false; } };
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const describe = (f: RotateFailure) => `  secret ${f.secretId} (owner ${f.ownerId}): ${f.reason}`;
const describeSso = (f: ResealFailure) => `  SSO provider ${f.providerId} (organization ${f.organizationId}): ${f.reason}`;
const SHOWN_FAILURES = 100;

let closeKafka = async (): Promise<void> => undefined;
try {
  // SSO client secrets first: a re-seal makes a data key, wrapped under the active key at once.
  let commands: AccountCommands | undefined;
  if (!dryRun) {
    const { kafka, topics } = await connectKafka(config, createLogger({ name: 'secrets-rotate', level: 'warn' }));
    const producer = await kafka.producer();
    closeKafka = () => producer.close();
    commands = new AccountCommands(new AccountAppender(producer, topics), pool);
  }
  const sso = await resealProviderSecrets(pool, ring, { dryRun, ...(commands ? { commands } : {}) });
  if (sso.failures.length > 0) {
    console.error(`${sso.failed} SSO client secret(s) could not be opened with the ring (left as they are):`);
    for (const f of sso.failures.slice(0, SHOWN_FAILURES)) console.error(describeSso(f));
    if (sso.failures.length > SHOWN_FAILURES) console.error(`  … and ${sso.failures.length - SHOWN_FAILURES} more`);
  }
  console.log(`SSO client secrets: ${dryRun ? 'would re-seal' : 're-sealed'} ${sso.resealed} under their data key, already on it ${sso.alreadyEnvelope}, failed ${sso.failed}`
    + `${sso.skipped ? `, skipped ${sso.skipped} (changed or deleted meanwhile: run again)` : ''}`);
  const r = await rotateSecretKeys(pool, ring, { dryRun }, {
    onStart: (total) => { if (total > 0) { bar.start(total, 0); barOn = true; } },
    onProgress: (done, total) => { if (barOn) { bar.setTotal(total); bar.update(done); } },
  });
  stopBar();
  if (r.failures.length > 0) {
    console.error(`${r.failed} data key(s) could not be opened with the ring (left as they are):`);
    for (const f of r.failures.slice(0, SHOWN_FAILURES)) console.error(describe(f));
    if (r.failures.length > SHOWN_FAILURES) console.error(`  … and ${r.failures.length - SHOWN_FAILURES} more`);
  }
  console.log(`${r.dryRun ? 'dry run: would re-wrap' : 're-wrapped'} ${r.rewrapped}, already current ${r.alreadyCurrent}, failed ${r.failed}`
    + `${r.skipped ? `, skipped ${r.skipped} (deleted or changed meanwhile)` : ''}, elapsed ${seconds(r.elapsedMs)}`);
  const inUse = r.keysInUse.map((k) => `${k.keyId || '(malformed)'} (${k.count})`).join(', ') || 'none (the key store is empty)';
  console.log(`key ids in use by vault data keys: ${inUse}; active: ${r.activeKeyId}; ring: ${ring.keyIds.join(', ')}`);
  if (!r.dryRun && r.failed === 0 && r.onlyActiveInUse && sso.failed === 0 && sso.ringSealedLeft === 0) {
    console.log('every vault data key and SSO client secret is under the active key: the older keys may leave SECRETS_KEY once every process runs with this ring.');
  } else if (!r.dryRun && sso.ringSealedLeft > 0) {
    console.log(`${sso.ringSealedLeft} SSO client secret(s) still sealed under the ring: run again before removing an older key.`);
  }
  await closeKafka();
  await pool.end();
  process.exit(r.failed > 0 || sso.failed > 0 ? 1 : 0);
} catch (err) {
  stopBar();
  console.error(`secrets:rotate failed: ${err instanceof Error ? err.message : String(err)}`);
  await closeKafka().catch(() => undefined);
  await pool.end().catch(() => undefined);
  process.exit(1);
}
