// Installs npm dependencies when they are missing (a fresh clone). No dependencies of its own.
import { existsSync, statSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { npmCliPath } from './node-runtime.mjs';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export function ensureDeps() {
  const marker = path.join(repoRoot, 'node_modules', '.package-lock.json');
  const lock = path.join(repoRoot, 'package-lock.json');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  // `npm install`, not `npm ci`: npm 11 leaves other platforms' optional packages (chdb's and
  // rollup's per-platform builds) out of the lockfile and then refuses `npm ci` on it. `install`
  // still follows the lockfile's versions.
  console.log('installing npm dependencies (npm install) …');
  // npm under the node running this script (the supported one ensureSupportedNode chose): npm checks
  // every package's `engines` against the node it runs on, and under an older one warns EBADENGINE.
  const r = spawnSync(process.execPath, [npmCliPath(), 'install', '--no-audit', '--no-fund'], { cwd: repoRoot, stdio: 'inherit' });
  if (r.status !== 0) {
    console.error('npm install failed');
    process.exit(1);
  }
}
