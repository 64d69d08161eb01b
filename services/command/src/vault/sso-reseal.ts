// The SSO step of `npm run secrets:rotate`: every provider client secret still sealed directly under
// a key of the ring (providers made before envelope encryption) is sealed again, unchanged, under
// the provider's own data key, and an accounts.provider.secret_resealed event records it. The
// event supersedes every older copy in the log, so a rebuild of the accounts read model from the
// topic ends with the data-key value too, and the old ring key can leave SECRETS_KEY.
//
// Each event carries the provider version read: a secret sent or dropped meanwhile wins, the re-seal
// is refused (`provider_changed`) and counted as skipped; a rerun picks the provider up again. The
// command's usual wait applies: it returns once the projector recorded the verdict (a projector that
// is not running makes the run fail with projection_lag, and a rerun is safe).
import { listProviderSecrets, organizationKey } from '@llm/account-model';
import { readWrappedKey } from '@llm/accounts-read';
import type { SecretBoxFailure, SecretsKeyring } from '@llm/oidc';
import type { Pool } from '@llm/postgres';
import type { AccountCommands } from '../accounts/adapters/account-commands.ts';
import { ProviderSecrets } from './adapters/provider-secrets.ts';
import { isRingSealed, planReseal } from './domain/sso-reseal.ts';

const PAGE = 500;

export interface ResealFailure { providerId: string; organizationId: string; reason: SecretBoxFailure }

export interface ResealResult {
  /** Sealed again under a data key (in a dry run: would be). */
  resealed: number;
  /** Already on the envelope. */
  alreadyEnvelope: number;
  /** Changed or deleted meanwhile: left as they are (a rerun retries them). */
  skipped: number;
  failed: number;
  failures: ResealFailure[];
  /** Providers whose secret still needs a key of the ring once the run is over. */
  ringSealedLeft: number;
}

export interface ResealOptions {
  dryRun?: boolean;
  /** Appends the events; not needed in a dry run. */
  commands?: AccountCommands;
}

export async function resealProviderSecrets(pool: Pool, ring: SecretsKeyring, options: ResealOptions = {}): Promise<ResealResult> {
  const dryRun = options.dryRun ?? false;
  const commands = options.commands;
  if (!dryRun && !commands) throw new TypeError('re-sealing SSO client secrets appends events: commands are required');
  const secrets = new ProviderSecrets(pool, ring);
  const out: ResealResult = { resealed: 0, alreadyEnvelope: 0, skipped: 0, failed: 0, failures: [], ringSealedLeft: 0 };
  for (let after: string | undefined; ;) {
    const rows = await listProviderSecrets(pool, { after, limit: PAGE });
    if (rows.length === 0) break;
    after = rows[rows.length - 1]!.id;
    for (const row of rows) {
      const hasDataKey = (await readWrappedKey(pool, row.organization_id, row.id)) !== undefined;
      const plan = planReseal(row, ring, hasDataKey);
      if (plan.action === 'current') { out.alreadyEnvelope++; continue; }
      if (plan.action === 'failed') {
        out.failed++;
        out.failures.push({ providerId: plan.providerId, organizationId: plan.organizationId, reason: plan.reason });
        continue;
      }
      if (dryRun) { out.resealed++; continue; }
      const sealed = await secrets.seal(plan.organizationId, plan.providerId, plan.secret.reveal());
      const key = organizationKey(plan.organizationId);
      const outcome = await commands!.appendAndAwait({
        type: 'accounts.provider.secret_resealed', key,
        payload: { provider_id: plan.providerId, organization_id: plan.organizationId, client_secret_sealed: sealed },
        meta: { requestId: 'secrets-rotate', organizationId: plan.organizationId, aggregateId: key, expectedVersion: plan.version },
      });
      if (outcome.status === 'applied') out.resealed++;
      else out.skipped++;
    }
    if (rows.length < PAGE) break;
  }
  for (let after: string | undefined; ;) {
    const rows = await listProviderSecrets(pool, { after, limit: PAGE });
    if (rows.length === 0) break;
    after = rows[rows.length - 1]!.id;
    out.ringSealedLeft += rows.filter((r) => isRingSealed(r.client_secret_sealed, ring)).length;
    if (rows.length < PAGE) break;
  }
  return out;
}
