// A pinned PyPI package in a private virtualenv under .data/tools/ (never system-wide), installed
// once with pip and reused by every run: the Agenta SDK test's `agenta`, the contract run's
// `schemathesis`.
import { spawnSync } from 'node:child_process';
import { existsSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The `python3` command (PYTHON3 overrides), or null when none runs. */
function python3Command() {
  for (const cmd of [process.env.PYTHON3, 'python3'].filter(Boolean)) {
    const r = spawnSync(cmd, ['--version'], { encoding: 'utf8' });
    if (!r.error && r.status === 0) return cmd;
  }
  return null;
}

/**
 * Creates `venvDir` with `requirement` (`name==version`) installed, once (idempotent); returns the
 * venv's interpreter. `label` names the package in messages, `purpose` what needs it.
 */
export function ensurePipVenv({ venvDir, requirement, label, purpose, log = console.log }) {
  const venvPython = path.join(venvDir, 'bin', 'python');
  if (existsSync(venvPython)) return venvPython;
  const python = python3Command();
  if (!python) {
    throw new Error(`${purpose} needs Python 3.10+ with venv (\`python3 -m venv\`): install python3 (e.g. apt-get install python3-venv) or set PYTHON3 to its command.`);
  }
  log(`installing ${label} with pip into ${path.relative(repoRoot, venvDir)} …`);
  const started = Date.now();
  // Built beside the final folder and renamed at the end: an interrupted or concurrent install never
  // leaves a folder that looks installed. (A venv records its own path, so it is created at a staging
  // path whose scripts are never used: only `bin/python -m …` is run, which does not depend on it.)
  const staging = `${venvDir}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  try {
    const venv = spawnSync(python, ['-m', 'venv', staging], { stdio: ['ignore', 'inherit', 'inherit'] });
    if (venv.status !== 0) throw new Error(`${python} -m venv failed (on Debian/Ubuntu install python3-venv)`);
    const pip = spawnSync(path.join(staging, 'bin', 'python'), ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', requirement], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    if (pip.status !== 0) throw new Error(`pip install ${requirement} failed (is PyPI reachable?)`);
    try {
      renameSync(staging, venvDir);
    } catch (err) {
      if (!existsSync(venvPython)) throw err; // else another process finished first
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  log(`installed ${label} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return venvPython;
}
