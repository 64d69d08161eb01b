// The domain projection's SQL against the real Postgres: after each fact, the claims the loader
// returns for the event's name are written out, and rejections leave the rows alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { type AccountEvent, type DomainClaim, type DomainState, readDomain } from '@llm/account-model';
import { ev, openProjectionDb, type ProjectionDb, type Step } from '../support/projection-db.ts';

let db: ProjectionDb;
beforeAll(async () => { db = await openProjectionDb(); });
afterAll(async () => { await db?.close(); });

const sorted = ({ verdict, after }: Step<'domain'>) => ({ verdict, after: { claims: [...after.claims].sort((a, b) => a.id.localeCompare(b.id)) } });

describe('domain projection (Postgres)', () => {
  it('given two organizations claiming one name, when both verify and the first deletes its claim, then the other claim is left unverified', async () => {
    const [orgA, orgB, idA, idB] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()].sort() as [string, string, string, string];
    const name = `${randomUUID().slice(0, 8)}.example.org`;
    const issued = (org: string, id: string, token: string) =>
      ev('accounts.domain.token_issued', { domain_id: id, organization_id: org, domain: name, name: 'n', description: '', token, issued_at_us: Date.now() * 1000 });
    const claim = (id: string, organizationId: string, token: string | null, verified: boolean): DomainClaim => ({ id, organizationId, domain: name, token, verified });
    // Each event, its verdict, and the claims on the name afterwards (idA sorts before idB).
    const steps: Array<[AccountEvent, string, DomainState]> = [
      [issued(orgA, idA, 'ta'), 'ok', { claims: [claim(idA, orgA, 'ta', false)] }],
      [issued(orgB, idB, 'tb'), 'ok', { claims: [claim(idA, orgA, 'ta', false), claim(idB, orgB, 'tb', false)] }],
      // A verified claim no longer holds a token.
      [ev('accounts.domain.verified', { domain_id: idA, organization_id: orgA, domain: name, token: 'ta' }), 'ok', { claims: [claim(idA, orgA, null, true), claim(idB, orgB, 'tb', false)] }],
      [ev('accounts.domain.verified', { domain_id: idB, organization_id: orgB, domain: name, token: 'tb' }), 'domain_verified', { claims: [claim(idA, orgA, null, true), claim(idB, orgB, 'tb', false)] }],
      [ev('accounts.domain.deleted', { domain_id: idA, organization_id: orgA, domain: name }), 'ok', { claims: [claim(idB, orgB, 'tb', false)] }],
    ];
    for (const [i, [e, verdict, after]] of steps.entries()) expect(sorted(await db.step('domain', e)), `step ${i}`).toEqual({ verdict, after });
    expect(await readDomain(db.pool, orgB, idB)).toMatchObject({ domain: name, name: 'n', is_verified: false });
  });
});
