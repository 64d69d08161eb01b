// `npm run secrets:rotate [-- --dry-run]`: re-wraps every vault data key under the active (first)
// key of SECRETS_KEY, with a progress bar, then says which key ids are still in use so the operator
// knows when an old key may leave the ring (README → Operations → Rotating the secrets key ring).
// The only reader of process.env for it. Exit codes: 0 done, 1 a row failed or the run did,
// 2 usage. Prints counts, secret ids and key ids — never key material or secret values.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import cliProgress from 'cli-progress';
import { envFragments, parseConfig } from '@llm/config';
import { secretsKeyEnv } from '@llm/oidc';
import { openPostgres } from '@llm/postgres';
import { exitOnBadConfig } from '@llm/runtime';
import { rotateSecretKeys, type RotateFailure } from './secrets-rotate.ts';

const args = process.argv.slice(2);
const unknown = args.filter((a) => a !== '--dry-run');
if (unknown.length > 0) {
  console.error('Usage: npm run secrets:rotate [-- --dry-run]');
  process.exit(2);
}
const dryRun = args.includes('--dry-run');

// Defaults of `npm start`'s embedded stack, as `npm run redrive` has: its Postgres, and the key ring
// it persisted (edit that file to rotate locally). Set variables always win.
const set = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => Boolean(e[1])));
const localKeyFile = path.join(set.DATA_DIR ?? '.data', 'secrets-key');
const env: Record<string, string> = {
  DATABASE_URL: `postgres://postgres:postgres@127.0.0.1:${set.POSTGRES_LOCAL_PORT ?? '15432'}/postgres`,
  ...(existsSync(localKeyFile) ? { SECRETS_KEY: readFileSync(localKeyFile, 'utf8').trim() } : {}),
  ...set,
};
const config = exitOnBadConfig(parseConfig(envFragments.postgres.extend(secretsKeyEnv.shape), env));
const ring = config.SECRETS_KEY;

const pool = openPostgres(config.DATABASE_URL, { max: 2 });
const bar = new cliProgress.SingleBar(
  { format: `${dryRun ? 'checking' : 're-wrapping'} data keys under ${ring.currentKeyId} [{bar}] {percentage}% | {value}/{total} keys` },
  cliProgress.Presets.shades_classic,
);
let barOn = false;
const stopBar = () => { if (barOn) { bar.stop(); barOn = false; } };
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const describe = (f: RotateFailure) => `  secret ${f.secretId} (project ${f.ownerId}): ${f.reason}`;
const SHOWN_FAILURES = 100;

try {
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
  if (!r.dryRun && r.failed === 0 && r.onlyActiveInUse) {
    console.log('every vault data key is under the active key. Before removing an older key from SECRETS_KEY, mind that SSO client secrets in the accounts log still need it (README → Rotating the secrets key ring).');
  }
  await pool.end();
  process.exit(r.failed > 0 ? 1 : 0);
} catch (err) {
  stopBar();
  console.error(`secrets:rotate failed: ${err instanceof Error ? err.message : String(err)}`);
  await pool.end().catch(() => undefined);
  process.exit(1);
}
