// The Agenta Python SDK (`agenta` on PyPI) in a private virtualenv, for the end-to-end test that runs
// the real SDK against this backend (test/e2e/agenta-sdk.e2e.test.ts). Installed once with pip from
// PyPI into .data/tools/agenta-sdk-<version>/ (never system-wide), then reused by every run.
import path from 'node:path';
import { ensurePipVenv, repoRoot } from './pip-venv.mjs';

// Pinned: the version the SDK test was written against (its HTTP calls read in its source).
export const AGENTA_SDK_VERSION = '0.125.1';
const venvDir = path.join(repoRoot, '.data', 'tools', `agenta-sdk-${AGENTA_SDK_VERSION}`);
/** The venv's interpreter; the test reads it from AGENTA_SDK_PYTHON or derives it the same way. */
export const agentaSdkPython = path.join(venvDir, 'bin', 'python');

/** Creates the venv and installs the pinned SDK once (idempotent); returns the venv's python. */
export function ensureAgentaSdk({ log = console.log } = {}) {
  return ensurePipVenv({ venvDir, requirement: `agenta==${AGENTA_SDK_VERSION}`, label: `the Agenta SDK ${AGENTA_SDK_VERSION}`, purpose: 'the Agenta SDK test', log });
}
