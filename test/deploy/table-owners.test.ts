// One owner per table, held by `npm run lint` (deploy/bin/check-table-owners.mjs): the tables the
// migrations create are all listed, SQL naming a table from a module not listed for it fails, and a
// listing that no longer names its table fails, so the list only shrinks towards one owner each.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkOwners, modulesNaming, tablesOfMigrations, type TableOwners } from '../../deploy/bin/check-table-owners.mjs';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const declared = JSON.parse(readFileSync(path.join(repoRoot, 'deploy/table-owners.json'), 'utf8')) as TableOwners;

describe('table ownership', () => {
  it('when the tree is checked, then every table the migrations create is listed and named only by its listed modules', () => {
    const tables = tablesOfMigrations();
    expect(tables).toEqual(expect.arrayContaining(['users', 'projects', 'spans', 'trace_index', 'trace_roots', 'platform_events', 'webhook_deliveries']));
    expect(checkOwners(declared, modulesNaming(tables))).toEqual([]);
  });

  it('when a module not listed names a table, or a listed one no longer does, then each is a problem naming the table and the module', () => {
    const found = { users: ['services/projector-accounts/src/projections/user.ts', 'services/query/src/http/new-route.ts'], workspaces: [] };
    const problems = checkOwners({
      users: { owner: 'services/projector-accounts/src/projections/user.ts' },
      workspaces: { owner: 'services/projector-accounts/src/projections/organization-lifecycle.ts' },
    }, found);
    expect(problems).toEqual([
      expect.stringMatching(/^users: named in services\/query\/src\/http\/new-route\.ts, which is not its owner/),
      expect.stringMatching(/^workspaces: services\/projector-accounts\/src\/projections\/organization-lifecycle\.ts is listed but no longer names it/),
    ]);
    expect(checkOwners({}, { users: ['a.ts'] })).toEqual([expect.stringMatching(/^users: not in deploy\/table-owners\.json/)]);
  });

  it('an aggregate folder owns its tables: any of its modules may name them, a module outside may not', () => {
    const owner = 'packages/account-model/src/aggregates/user/';
    expect(checkOwners({ users: { owner } }, { users: [`${owner}projection.ts`, `${owner}reads.ts`] })).toEqual([]);
    expect(checkOwners({ users: { owner } }, { users: [`${owner}reads.ts`, 'packages/account-model/src/aggregates/users-extra/reads.ts'] }))
      .toEqual([expect.stringMatching(/^users: named in packages\/account-model\/src\/aggregates\/users-extra\/reads\.ts, which is not its owner/)]);
    expect(checkOwners({ users: { owner } }, { users: [] })).toEqual([expect.stringMatching(/^users: packages\/account-model\/src\/aggregates\/user\/ is listed but no longer names it/)]);
  });
});
