// Organization domains (reference §4, state table of the interface): each write becomes an
// accounts.domain.* event keyed by the domain name; the command answers with the projected domain
// once projector-accounts has recorded the event (read-your-writes). DNS is checked here, before
// the event: `verified` records a fact that was observed.
import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { domainCreate, domainVerify, domainView, type DomainRow } from '@llm/contracts';
import { DnsLookupError, generateToken, isTokenExpired, type TxtVerification } from '@llm/dns-verify';
import { conflict, invalid, notFound, unavailable, type AppError } from '@llm/errors';
import { validate, type Handlers } from '@llm/http';
import type { EventPayloads } from '@llm/events';
import type { Pool } from '@llm/postgres';
import type { AccountAppender } from '../adapters/account-appender.ts';
import { waitForEvent } from '../adapters/accounts-store.ts';
import { findDomainByName, readDomain, verifiedBy } from '../adapters/domain-store.ts';
import { readOrganization } from '@llm/accounts-read';

/** The DNS proof (`verifyTxt` of @llm/dns-verify bound to the configured resolvers). Throws
 * DnsLookupError when the resolver fails (503), which is not the same as "no such record". */
export type TxtProof = (domain: string, token: string) => Promise<TxtVerification>;

export const domainKey = (domain: string): string => `domain:${domain}`;
const domainNotFound = (): AppError => notFound('domain_not_found', 'Domain not found');
const lagging = (): AppError => unavailable('projection_lag', 'The change was accepted but is not visible yet; retry the read shortly.');

export function domainRoutes(appender: AccountAppender, pool: Pool, proof: TxtProof, guard: RequestHandler[]): Handlers {
  const meta = (req: Request, domainId: string) => ({
    requestId: req.id, organizationId: req.scope.organizationId, projectId: req.scope.projectId, aggregateId: `domain:${domainId}`, actorId: req.scope.userId,
  });

  /** Appends, waits for the projector's verdict, answers from the projection. */
  async function commit<T extends 'accounts.domain.token_issued' | 'accounts.domain.verified' | 'accounts.domain.deleted'>(
    req: Request, type: T, domain: string, domainId: string, payload: EventPayloads[T],
  ): Promise<DomainRow | undefined> {
    const eventId = await appender.append(type, domainKey(domain), payload, meta(req, domainId));
    const outcome = await waitForEvent(pool, eventId);
    if (outcome.status === 'timeout') throw lagging();
    if (outcome.status === 'rejected') {
      if (outcome.reason === 'Domain not found') throw domainNotFound();
      throw conflict('domain_conflict', outcome.reason);
    }
    return readDomain(pool, req.scope.organizationId, domainId);
  }

  async function issueToken(req: Request, row: Pick<DomainRow, 'id' | 'domain'>, name = '', description = ''): Promise<DomainRow> {
    const out = await commit(req, 'accounts.domain.token_issued', row.domain, row.id, {
      domain_id: row.id, organization_id: req.scope.organizationId, domain: row.domain, name, description, token: generateToken(), issued_at_us: Date.now() * 1000,
    });
    if (!out) throw lagging();
    return out;
  }

  async function existing(req: Request): Promise<DomainRow> {
    const row = await readDomain(pool, req.scope.organizationId, String(req.params.domain_id ?? ''));
    if (!row) throw domainNotFound();
    // auto_join and domains_only rely on verified domains: they must be off before one goes.
    if (row.is_verified) {
      const flags = (await readOrganization(pool, req.scope.organizationId))?.flags ?? {};
      if (flags.domains_only === true || flags.auto_join === true) throw invalid('domain_in_use', 'Disable domains-only and auto-join before modifying verified domains.');
    }
    return row;
  }

  return {
    'organizations.domains.create': [...guard, async (req, res) => {
      const body = validate(domainCreate, req.body);
      const domain = body.domain;
      const owner = await verifiedBy(pool, domain);
      if (owner !== undefined) throw conflict('domain_verified', owner === req.scope.organizationId ? `Domain ${domain} is already verified` : `Domain ${domain} is already verified by another organization`);
      // An unverified claim of the same name by this organization is reused with a fresh token.
      const mine = await findDomainByName(pool, req.scope.organizationId, domain);
      const row = await issueToken(req, { id: mine?.id ?? randomUUID(), domain }, body.name ?? '', body.description ?? '');
      res.status(200).json(domainView(row));
    }],

    'organizations.domains.verify': [...guard, async (req, res) => {
      const body = validate(domainVerify, req.body);
      const row = await readDomain(pool, req.scope.organizationId, body.domain_id);
      if (!row) throw domainNotFound();
      if (row.is_verified || row.token === null) throw invalid('domain_already_verified', 'Domain already verified');
      const owner = await verifiedBy(pool, row.domain);
      if (owner !== undefined && owner !== req.scope.organizationId) throw conflict('domain_verified', `Domain ${row.domain} is already verified by another organization`);
      if (isTokenExpired(row.created_at)) {
        throw invalid('domain_token_expired', 'Verification token expired after 48 hours. Please refresh the token.');
      }
      let proved: TxtVerification;
      try {
        proved = await proof(row.domain, row.token);
      } catch (err) {
        if (err instanceof DnsLookupError) throw unavailable('dns_unavailable', 'The DNS lookup failed; retry shortly.', err);
        throw err;
      }
      if (!proved.verified) {
        const { name, value } = proved.record;
        throw invalid('domain_verification_failed', `Domain verification failed. Please ensure the DNS TXT record ${name} holds "${value}".`);
      }
      const out = await commit(req, 'accounts.domain.verified', row.domain, row.id, {
        domain_id: row.id, organization_id: req.scope.organizationId, domain: row.domain, token: row.token,
      });
      if (!out) throw lagging();
      res.status(200).json(domainView(out));
    }],

    // The interface's state table: refresh renews the token of an unverified domain; reset starts a
    // verified domain over (unverified, new token). Each refuses the other state with a 409.
    'organizations.domains.refresh': [...guard, async (req, res) => {
      const row = await existing(req);
      if (row.is_verified) throw conflict('domain_verified', 'Domain is verified; use reset to start its verification over.');
      res.status(200).json(domainView(await issueToken(req, row)));
    }],

    'organizations.domains.reset': [...guard, async (req, res) => {
      const row = await existing(req);
      if (!row.is_verified) throw conflict('domain_not_verified', 'Domain is not verified; use refresh for a new token.');
      res.status(200).json(domainView(await issueToken(req, row)));
    }],

    'organizations.domains.delete': [...guard, async (req, res) => {
      const row = await existing(req);
      await commit(req, 'accounts.domain.deleted', row.domain, row.id, { domain_id: row.id, organization_id: req.scope.organizationId, domain: row.domain });
      res.status(204).end();
    }],
  };
}
