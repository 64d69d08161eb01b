// Schemathesis (`schemathesis` on PyPI) in a private virtualenv, for the contract fuzzing run
// (deploy/bin/test-contract.mjs), installed once into .data/tools/schemathesis-<version>/.
import path from 'node:path';
import { ensurePipVenv, repoRoot } from './pip-venv.mjs';

// Pinned: its checks and CLI options change between minor releases, and the run's verdict must not.
export const SCHEMATHESIS_VERSION = '4.32.5';
const venvDir = path.join(repoRoot, '.data', 'tools', `schemathesis-${SCHEMATHESIS_VERSION}`);

/**
 * Creates the venv and installs the pinned schemathesis once (idempotent); returns the command that
 * runs its CLI (`python -m schemathesis.cli` needs no script path, so the staged venv can be renamed).
 */
export function ensureSchemathesis({ log = console.log } = {}) {
  const python = ensurePipVenv({ venvDir, requirement: `schemathesis==${SCHEMATHESIS_VERSION}`, label: `schemathesis ${SCHEMATHESIS_VERSION}`, purpose: 'contract fuzzing', log });
  return [python, '-m', 'schemathesis.cli'];
}
