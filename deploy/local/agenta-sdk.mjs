// The Agenta Python SDK (`agenta` on PyPI) in a private virtualenv, for the end-to-end test that runs
// the real SDK against this backend (test/e2e/agenta-sdk.e2e.test.ts). Installed once with pip from
// PyPI into .data/tools/agenta-sdk-<version>/ (never system-wide), then reused by every run.
import { spawnSync } from 'node:child_process';
import { existsSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(here, '../..');

// Pinned: the version the SDK test was written against (its HTTP calls read in its source).
export const AGENTA_SDK_VERSION = '0.125.1';
const venvDir = path.join(repoRoot, '.data', 'tools', `agenta-sdk-${AGENTA_SDK_VERSION}`);
/** The venv's interpreter; the test reads it from AGENTA_SDK_PYTHON or derives it the same way. */
export const agentaSdkPython = path.join(venvDir, 'bin', 'python');

/** The `python3` command (PYTHON3 overrides), or null when none runs. */
function python3Command() {
  for (const cmd of [process.env.PYTHON3, 'python3'].filter(Boolean)) {
    const r = spawnSync(cmd, ['--version'], { encoding: 'utf8' });
    if (!r.error && r.status === 0) return cmd;
  }
  return null;
}

/** Creates the venv and installs the pinned SDK once (idempotent); returns the venv's python. */
export function ensureAgentaSdk({ log = console.log } = {}) {
  if (existsSync(agentaSdkPython)) return agentaSdkPython;
  const python = python3Command();
  if (!python) {
    throw new Error('the Agenta SDK test needs Python 3.10+ with venv (`python3 -m venv`): install python3 (e.g. apt-get install python3-venv) or set PYTHON3 to its command.');
  }
  log(`installing the Agenta SDK ${AGENTA_SDK_VERSION} with pip into ${path.relative(repoRoot, venvDir)} …`);
  const started = Date.now();
  // Built beside the final folder and renamed at the end: an interrupted or concurrent install never
  // leaves a folder that looks installed. (A venv records its own path, so it is created at a staging
  // path whose scripts are never used: only `bin/python -m …` is run, which does not depend on it.)
  const staging = `${venvDir}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  try {
    const venv = spawnSync(python, ['-m', 'venv', staging], { stdio: ['ignore', 'inherit', 'inherit'] });
    if (venv.status !== 0) throw new Error(`${python} -m venv failed (on Debian/Ubuntu install python3-venv)`);
    const pip = spawnSync(path.join(staging, 'bin', 'python'), ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', `agenta==${AGENTA_SDK_VERSION}`], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    if (pip.status !== 0) throw new Error(`pip install agenta==${AGENTA_SDK_VERSION} failed (is PyPI reachable?)`);
    try {
      renameSync(staging, venvDir);
    } catch (err) {
      if (!existsSync(agentaSdkPython)) throw err; // else another process finished first
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  log(`installed the Agenta SDK in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return agentaSdkPython;
}
