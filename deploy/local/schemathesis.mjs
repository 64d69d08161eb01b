// Schemathesis (`schemathesis` on PyPI) in a private virtualenv, for the contract fuzzing run
// (deploy/bin/test-contract.mjs). Installed once with pip from PyPI into
// .data/tools/schemathesis-<version>/ (never system-wide), then reused by every run.
import { spawnSync } from 'node:child_process';
import { existsSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');

// Pinned: its checks and CLI options change between minor releases, and the run's verdict must not.
export const SCHEMATHESIS_VERSION = '4.32.5';
const venvDir = path.join(repoRoot, '.data', 'tools', `schemathesis-${SCHEMATHESIS_VERSION}`);
const venvPython = path.join(venvDir, 'bin', 'python');

/** The `python3` command (PYTHON3 overrides), or null when none runs. */
function python3Command() {
  for (const cmd of [process.env.PYTHON3, 'python3'].filter(Boolean)) {
    const r = spawnSync(cmd, ['--version'], { encoding: 'utf8' });
    if (!r.error && r.status === 0) return cmd;
  }
  return null;
}

/**
 * Creates the venv and installs the pinned schemathesis once (idempotent); returns the command that
 * runs its CLI (`python -m schemathesis.cli` needs no script path, so the staged venv can be renamed).
 */
export function ensureSchemathesis({ log = console.log } = {}) {
  const command = [venvPython, '-m', 'schemathesis.cli'];
  if (existsSync(venvPython)) return command;
  const python = python3Command();
  if (!python) {
    throw new Error('contract fuzzing needs Python 3.10+ with venv (`python3 -m venv`): install python3 (e.g. apt-get install python3-venv) or set PYTHON3 to its command.');
  }
  log(`installing schemathesis ${SCHEMATHESIS_VERSION} with pip into ${path.relative(repoRoot, venvDir)} …`);
  const started = Date.now();
  // Built beside the final folder and renamed at the end: an interrupted or concurrent install never
  // leaves a folder that looks installed.
  const staging = `${venvDir}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  try {
    const venv = spawnSync(python, ['-m', 'venv', staging], { stdio: ['ignore', 'inherit', 'inherit'] });
    if (venv.status !== 0) throw new Error(`${python} -m venv failed (on Debian/Ubuntu install python3-venv)`);
    const pip = spawnSync(path.join(staging, 'bin', 'python'), ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', `schemathesis==${SCHEMATHESIS_VERSION}`], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    if (pip.status !== 0) throw new Error(`pip install schemathesis==${SCHEMATHESIS_VERSION} failed (is PyPI reachable?)`);
    try {
      renameSync(staging, venvDir);
    } catch (err) {
      if (!existsSync(venvPython)) throw err; // else another process finished first
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  log(`installed schemathesis in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return command;
}
