// The domain projection's SQL against the real Postgres: after each fact, the state the reader
// loads is the state the aggregate's `evolve` says, and rejections leave the rows alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { domain, type AccountEvent, type DomainState } from '@llm/account-model';
import { loadDomainClaims, readDomain } from '@llm/accounts-read';
import { ev, openProjectionDb, type ProjectionDb } from '../support/projection-db.ts';

let db: ProjectionDb;
beforeAll(async () => { db = await openProjectionDb(); });
afterAll(async () => { await db?.close(); });

const sorted = (s: DomainState) => [...s.claims].sort((a, b) => a.id.localeCompare(b.id));

describe('domain projection (Postgres)', () => {
  it('stores what evolve says, fact by fact; a rejected event changes nothing', async () => {
    const [orgA, orgB, idA, idB] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const name = `${randomUUID().slice(0, 8)}.example.org`;
    const issued = (org: string, id: string, token: string) =>
      ev('accounts.domain.token_issued', { domain_id: id, organization_id: org, domain: name, name: 'n', description: '', token, issued_at_us: Date.now() * 1000 });
    const history = [
      issued(orgA, idA, 'ta'), issued(orgB, idB, 'tb'),
      ev('accounts.domain.verified', { domain_id: idA, organization_id: orgA, domain: name, token: 'ta' }),
      ev('accounts.domain.verified', { domain_id: idB, organization_id: orgB, domain: name, token: 'tb' }),
      ev('accounts.domain.deleted', { domain_id: idA, organization_id: orgA, domain: name }),
    ];
    let expected = domain.initial;
    for (const e of history) {
      const before = await loadDomainClaims(db.pool, name);
      const decision = domain.decide(e as never, before);
      const [outcome] = await db.apply(e);
      expect(outcome).toEqual(decision.status === 'accepted' ? { status: 'applied' } : decision);
      if (decision.status === 'accepted') expected = domain.evolve(expected, e as never);
      expect(sorted(await loadDomainClaims(db.pool, name))).toEqual(sorted(expected));
    }
    // B's verification lost to A's; A's claim is gone: B's claim is left unverified.
    expect(expected.claims).toEqual([expect.objectContaining({ id: idB, verified: false, token: 'tb' })]);
    expect(await readDomain(db.pool, orgB, idB)).toMatchObject({ domain: name, name: 'n', is_verified: false });
  });
});
