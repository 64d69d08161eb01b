// Organization domains (reference §4, state table of the interface): each write becomes an
// accounts.domain.* event keyed by the domain name; the rules are the domain aggregate's
// (@llm/account-model), the answer is the projected domain (read-your-writes). DNS is checked here,
// before the event: `verified` records a fact that was observed.
import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import { decideChange, decideClaim, decideRenewal, decideVerify, type DomainEventType, domainKey, findDomainByName, loadDomainClaims, readDomain, readOrganization, refuse } from '@llm/account-model';
import { domainCreate, domainVerify, domainView, type DomainRow } from '@llm/contracts';
import { DnsLookupError, generateToken, isTokenExpired, type TxtVerification } from '@llm/dns-verify';
import { invalid, unavailable, type AppError } from '@llm/errors';
import type { EventPayloads } from '@llm/events';
import { validate, type Handlers, type Guards } from '@llm/http';
import type { Pool } from '@llm/postgres';
import { orThrow as check, projectionLag, type AccountCommands } from '../adapters/account-commands.ts';

/** The DNS proof (`verifyTxt` of @llm/dns-verify bound to the configured resolvers). Throws
 * DnsLookupError when the resolver fails (503), which is not the same as "no such record". */
export type TxtProof = (domain: string, token: string) => Promise<TxtVerification>;

export { domainKey };
const domainNotFound = (): AppError => refuse('domain_not_found', 'Domain not found');
const claimOf = (row: DomainRow) => ({ verified: row.is_verified, token: row.token });

export function domainRoutes(deps: { commands: AccountCommands; pool: Pool; proof: TxtProof }, guards: Guards<'edit'>): Handlers {
  const { commands, pool, proof } = deps;
  /** Records the event and answers from the projection. */
  async function commit<T extends DomainEventType>(req: Request, type: T, payload: EventPayloads[T] & { domain_id: string; domain: string }): Promise<DomainRow> {
    await commands.run(req, { type, key: domainKey(payload.domain), payload, meta: { aggregateId: `domain:${payload.domain_id}` } });
    const row = await readDomain(pool, req.scope.organizationId, payload.domain_id);
    if (!row && type !== 'accounts.domain.deleted') throw projectionLag();
    return row as DomainRow;
  }

  const issueToken = (req: Request, row: Pick<DomainRow, 'id' | 'domain'>, name = '', description = ''): Promise<DomainRow> =>
    commit(req, 'accounts.domain.token_issued', {
      domain_id: row.id, organization_id: req.scope.organizationId, domain: row.domain, name, description, token: generateToken(), issued_at_us: Date.now() * 1000,
    });

  /** The claim named in the path, when changing it is allowed. */
  async function existing(req: Request): Promise<DomainRow> {
    const row = await readDomain(pool, req.scope.organizationId, String(req.params.domain_id ?? ''));
    if (!row) throw domainNotFound();
    if (row.is_verified) check(decideChange(claimOf(row), (await readOrganization(pool, req.scope.organizationId))?.flags ?? {}));
    return row;
  }

  return {
    'organizations.domains.create': [...guards.edit, async (req, res) => {
      const body = validate(domainCreate, req.body);
      const orgId = req.scope.organizationId;
      check(decideClaim(await loadDomainClaims(pool, body.domain), orgId, body.domain));
      // An unverified claim of the same name by this organization is reused with a fresh token.
      const mine = await findDomainByName(pool, orgId, body.domain);
      const row = await issueToken(req, { id: mine?.id ?? randomUUID(), domain: body.domain }, body.name ?? '', body.description ?? '');
      res.status(200).json(domainView(row));
    }],

    'organizations.domains.verify': [...guards.edit, async (req, res) => {
      const body = validate(domainVerify, req.body);
      const row = await readDomain(pool, req.scope.organizationId, body.domain_id);
      if (!row) throw domainNotFound();
      check(decideVerify(claimOf(row)));
      const payload = { domain_id: row.id, organization_id: req.scope.organizationId, domain: row.domain, token: row.token ?? '' };
      // The aggregate's rules first (another organization may have verified the name): no DNS lookup for a lost cause.
      await commands.check(req, { type: 'accounts.domain.verified', key: domainKey(row.domain), payload, meta: { aggregateId: `domain:${row.id}` } });
      if (isTokenExpired(row.created_at)) {
        throw invalid('domain_token_expired', 'Verification token expired after 48 hours. Please refresh the token.');
      }
      let proved: TxtVerification;
      try {
        proved = await proof(row.domain, payload.token);
      } catch (err) {
        if (err instanceof DnsLookupError) throw unavailable('dns_unavailable', 'The DNS lookup failed; retry shortly.', err);
        throw err;
      }
      if (!proved.verified) {
        const { name, value } = proved.record;
        throw invalid('domain_verification_failed', `Domain verification failed. Please ensure the DNS TXT record ${name} holds "${value}".`);
      }
      res.status(200).json(domainView(await commit(req, 'accounts.domain.verified', payload)));
    }],

    // The interface's state table: refresh renews the token of an unverified domain; reset starts a
    // verified domain over (unverified, new token). Each refuses the other state with a 409.
    'organizations.domains.refresh': [...guards.edit, async (req, res) => {
      const row = await existing(req);
      check(decideRenewal('refresh', claimOf(row)));
      res.status(200).json(domainView(await issueToken(req, row)));
    }],

    'organizations.domains.reset': [...guards.edit, async (req, res) => {
      const row = await existing(req);
      check(decideRenewal('reset', claimOf(row)));
      res.status(200).json(domainView(await issueToken(req, row)));
    }],

    'organizations.domains.delete': [...guards.edit, async (req, res) => {
      const row = await existing(req);
      await commit(req, 'accounts.domain.deleted', { domain_id: row.id, organization_id: req.scope.organizationId, domain: row.domain });
      res.status(204).end();
    }],
  };
}
