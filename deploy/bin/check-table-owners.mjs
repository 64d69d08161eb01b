#!/usr/bin/env node
// `npm run lint` (and `npm test`'s lint step): which source modules name each store table in SQL.
// Every Postgres and ClickHouse table a migration creates is listed in deploy/table-owners.json with
// the modules allowed to name it: the owner that writes it first, then every other module that still
// reads or writes it directly. SQL naming a table from a module not listed fails, and so does a
// listed module that no longer names it (the list only shrinks towards one owner per table).
// Usage: node deploy/bin/check-table-owners.mjs [--write]  (--write records today's modules)
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ownersFile = path.join(repoRoot, 'deploy/table-owners.json');
const posix = (p) => p.split(path.sep).join('/');

function walk(dir, pick, out = []) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) { if (e.name !== 'node_modules') walk(p, pick, out); }
    else if (pick(p)) out.push(p);
  }
  return out;
}

/** Tables the migrations create (services/<service>/migrations/*.sql). */
export function tablesOfMigrations(root = repoRoot) {
  const tables = new Set();
  for (const svc of readdirSync(path.join(root, 'services'))) {
    const dir = path.join(root, 'services', svc, 'migrations');
    let files = [];
    try { files = readdirSync(dir).filter((f) => f.endsWith('.sql')); } catch { continue; }
    // In migration order: a table a later migration drops is gone (its rows moved elsewhere).
    for (const f of files.sort()) {
      const sql = readFileSync(path.join(dir, f), 'utf8');
      for (const m of sql.matchAll(/CREATE TABLE (?:IF NOT EXISTS )?(?:\{?[A-Za-z_.]*\}?\.)?([a-z_]+)/g)) tables.add(m[1]);
      for (const m of sql.matchAll(/DROP TABLE (?:IF EXISTS )?(?:\{?[A-Za-z_.]*\}?\.)?([a-z_]+)/g)) tables.delete(m[1]);
    }
  }
  return [...tables].sort();
}

/** The source modules (services/<service>/src, packages/<package>/src) whose SQL names `table`. */
export function modulesNaming(tables, root = repoRoot) {
  const sources = ['services', 'packages'].flatMap((top) => readdirSync(path.join(root, top)).flatMap((ws) => {
    try { return walk(path.join(root, top, ws, 'src'), (p) => p.endsWith('.ts')); } catch { return []; }
  }));
  const found = Object.fromEntries(tables.map((t) => [t, []]));
  for (const file of sources) {
    const text = readFileSync(file, 'utf8');
    for (const t of tables) {
      // In SQL (FROM users, INTO llm.spans), or as the constant a module spells the name in
      // ('platform_events'): a module that imports the constant goes through its owner.
      // A one-word name ('spans', 'events') is also an ordinary word: only its SQL or a template
      // building it (`spans${suffix}`) count.
      const constant = t.includes('_') ? new RegExp(`['"\`]${t}(['"\`]|\\$\\{)`) : new RegExp(`\`${t}\\$\\{`);
      const named = new RegExp(`\\b(FROM|JOIN|INTO|UPDATE|TABLE|EXISTS|DELETE FROM)\\s+(?:[A-Za-z_{}$.]*\\.)?${t}\\b`).test(text) || constant.test(text);
      if (named) found[t].push(posix(path.relative(root, file)));
    }
  }
  for (const t of tables) found[t].sort();
  return found;
}

/** The module that writes `table` (a projector's first), else the first that names it. */
function writerOf(table, modules, root = repoRoot) {
  const writes = new RegExp(`\\b(INSERT INTO|UPDATE|DELETE FROM)\\s+(?:[A-Za-z_{}$.]*\\.)?${table}\\b`);
  const writers = modules.filter((m) => writes.test(readFileSync(path.join(root, m), 'utf8')));
  return writers.find((m) => m.includes('/projector-')) ?? writers[0] ?? modules[0] ?? '';
}

/** An owner is a module, or a folder (ending in /: an aggregate's folder, whose projection writes and whose reads read it). */
const within = (owner, m) => m === owner || (owner.endsWith('/') && m.startsWith(owner));

/** An account aggregate's folder when `m` is one of its modules. */
const aggregateFolder = (m) => m.match(/^packages\/account-model\/src\/aggregates\/[a-z-]+\//)?.[0];

/** Problems: a table without an entry, a module naming a table it is not listed for, a listed module that no longer names it. */
export function checkOwners(declared, found) {
  const problems = [];
  for (const [t, modules] of Object.entries(found)) {
    const entry = declared[t];
    if (!entry) { problems.push(`${t}: not in deploy/table-owners.json (add it with its owner)`); continue; }
    const allowed = [entry.owner, ...(entry.alsoNamedBy ?? [])];
    for (const m of modules) if (!allowed.some((a) => within(a, m))) problems.push(`${t}: named in ${m}, which is not its owner (${entry.owner}); call the owner's functions instead`);
    for (const a of allowed) if (!modules.some((m) => within(a, m))) problems.push(`${t}: ${a} is listed but no longer names it; remove it from deploy/table-owners.json`);
  }
  return problems;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const tables = tablesOfMigrations();
  const found = modulesNaming(tables);
  if (process.argv.includes('--write')) {
    const previous = JSON.parse(readFileSync(ownersFile, 'utf8'));
    const next = Object.fromEntries(tables.map((t) => {
      const kept = previous[t]?.owner && found[t].some((m) => within(previous[t].owner, m)) ? previous[t].owner : writerOf(t, found[t]);
      const owner = aggregateFolder(kept) ?? kept;
      return [t, { owner, alsoNamedBy: found[t].filter((m) => !within(owner, m)) }];
    }));
    writeFileSync(ownersFile, `${JSON.stringify(next, null, 2)}\n`);
    console.log(`wrote ${posix(path.relative(repoRoot, ownersFile))}`);
  } else {
    const problems = checkOwners(JSON.parse(readFileSync(ownersFile, 'utf8')), found);
    if (problems.length) {
      console.error(`table ownership: ${problems.length} problem(s)\n  ${problems.join('\n  ')}`);
      process.exit(1);
    }
    const shared = Object.values(found).filter((m) => m.length > 1).length;
    console.log(`table ownership: ${tables.length} tables, each named only by its listed modules (${tables.length - shared} by their owner alone)`);
  }
}
