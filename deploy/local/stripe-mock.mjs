// Local stripe-mock (Stripe's own API mock, a Go program) for the billing integration tests and local
// runs without a Stripe account. No Docker, no downloads outside the Go module proxy: built once with
// `go install github.com/stripe/stripe-mock@<version>` into .data/tools/, then run on loopback.
// stripe-mock answers every documented endpoint with fixtures and keeps no state.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSupervised } from './supervised-process.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(here, '../..');

// Pinned: its fixtures and OpenAPI spec follow one Stripe API version (see docs/architecture.md, billing).
export const STRIPE_MOCK_VERSION = 'v0.203.0';
const toolDir = path.join(repoRoot, '.data', 'tools', `stripe-mock-${STRIPE_MOCK_VERSION}`);
const binary = path.join(toolDir, 'stripe-mock');

/** The `go` command: GO_BIN, else `go` on PATH, else the usual /usr/local/go install; null if none runs. */
function goCommand() {
  const candidates = [process.env.GO_BIN, 'go', '/usr/local/go/bin/go'].filter(Boolean);
  for (const cmd of candidates) {
    const r = spawnSync(cmd, ['version'], { encoding: 'utf8' });
    if (!r.error && r.status === 0) return cmd;
  }
  return null;
}

/** Builds the binary once (idempotent) and returns its path. */
export function ensureStripeMock({ log = console.log } = {}) {
  if (existsSync(binary)) return binary;
  const go = goCommand();
  if (!go) {
    throw new Error(
      'stripe-mock is built from source and needs Go 1.22+: install it (https://go.dev/doc/install, e.g. into /usr/local/go) '
      + 'or set GO_BIN to the go command; or set STRIPE_MOCK_URL to a running stripe-mock.',
    );
  }
  log(`building stripe-mock ${STRIPE_MOCK_VERSION} with go install into ${path.relative(repoRoot, toolDir)} …`);
  const started = Date.now();
  // Built beside the final folder and renamed at the end, so an interrupted build or a concurrent
  // one (two test runs) never leaves a folder that looks installed.
  const staging = `${toolDir}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  try {
    const r = spawnSync(go, ['install', `github.com/stripe/stripe-mock@${STRIPE_MOCK_VERSION}`], {
      // Pure Go: no C toolchain needed.
      env: { ...process.env, GOBIN: staging, CGO_ENABLED: '0' },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    if (r.status !== 0) throw new Error(`go install github.com/stripe/stripe-mock@${STRIPE_MOCK_VERSION} failed (is the Go module proxy reachable?)`);
    if (!existsSync(path.join(staging, 'stripe-mock'))) throw new Error(`go install left no stripe-mock binary in ${staging}`);
    try {
      renameSync(staging, toolDir);
    } catch (err) {
      if (!existsSync(binary)) throw err; // else another process finished first
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  log(`built stripe-mock in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return binary;
}

/**
 * Starts stripe-mock serving plain HTTP on 127.0.0.1:<port>. Resolves once it answers an API request.
 * Returns { url, pid, stop }.
 */
export async function startStripeMock({ port, log = console.log }) {
  const bin = ensureStripeMock({ log });
  const url = `http://127.0.0.1:${port}`;
  // -http-addr alone still opens the default HTTPS listener on every interface (port 12112, which
  // two runs would fight over); parking HTTPS on a private unix socket keeps the network to HTTP on
  // loopback. (-http-port would disable HTTPS but binds every interface.)
  const socketDir = mkdtempSync(path.join(os.tmpdir(), 'stripe-mock-'));
  let proc;
  try {
    proc = await startSupervised(bin, ['-http-addr', `127.0.0.1:${port}`, '-https-unix', path.join(socketDir, 'https.sock')], {
      ready: (isAlive) => waitForApi(url, { isAlive, timeoutMs: 30_000 }),
    });
  } catch (err) {
    rmSync(socketDir, { recursive: true, force: true });
    throw err;
  }
  return {
    url,
    pid: proc.pid,
    async stop() {
      await proc.stop();
      rmSync(socketDir, { recursive: true, force: true });
    },
  };
}

// Ready means an authenticated API call answers 200 (any key of the form sk_test_… is accepted).
async function waitForApi(url, { isAlive, timeoutMs }) {
  const deadline = Date.now() + timeoutMs;
  const probe = () => fetch(`${url}/v1/balance`, { headers: { authorization: 'Bearer sk_test_probe' }, signal: AbortSignal.timeout(2_000) })
    .then(async (r) => { await r.arrayBuffer(); return r.ok; }, () => false);
  while (Date.now() < deadline) {
    if (await probe()) return;
    if (!isAlive()) throw new Error(`stripe-mock exited before it answered on ${url}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`stripe-mock did not answer on ${url} within ${timeoutMs} ms`);
}
