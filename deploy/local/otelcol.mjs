// Core OpenTelemetry Collector distributions, each built once with the OpenTelemetry Collector
// Builder (ocb) from the Go module proxy into .data/tools/<name>-<version>/<name>/<name>: the
// forwarding one of the OTLP receivers' end-to-end test (OTLP receiver → batch → OTLP/gRPC and
// OTLP/HTTP exporters, deploy/local/otelcol/builder-config.yaml), and the one bench:collector
// compares with (test/bench/collector/builder-config.yaml). A manifest's dist name and output_path
// are its `name`. Go's build and module caches stay where Go keeps them ($HOME), so another clone on
// the same machine rebuilds quickly. Without Go nothing is built and the caller says why.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { goCommand } from './telemetrygen.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// The builder's version; the manifests pin every component to the same one.
export const OTELCOL_VERSION = 'v0.165.0';
const toolsDir = path.join(repoRoot, '.data', 'tools');
const FORWARD = { name: 'otelcol-forward', manifest: path.join(repoRoot, 'deploy', 'local', 'otelcol', 'builder-config.yaml') };
const toolDirOf = (name) => path.join(toolsDir, `${name}-${OTELCOL_VERSION}`);
const binaryOf = (name) => path.join(toolDirOf(name), name, name);
export const otelcolBinary = binaryOf(FORWARD.name);

/** A built copy of this manifest is there (the manifest it was built from is copied in last). */
function upToDate({ name, manifest }) {
  const builtFrom = path.join(toolDirOf(name), 'builder-config.yaml');
  return existsSync(binaryOf(name)) && existsSync(builtFrom) && readFileSync(builtFrom, 'utf8') === readFileSync(manifest, 'utf8');
}

/** ocb as another distribution's build left it, if any (it is the same binary for all). */
function installedBuilder() {
  const dirs = existsSync(toolsDir) ? readdirSync(toolsDir).filter((d) => d.endsWith(`-${OTELCOL_VERSION}`)) : [];
  return dirs.map((d) => path.join(toolsDir, d, 'bin', 'builder')).find((b) => existsSync(b));
}

/** The tail of a failed command's output, for the error. */
function tail(r) {
  return `${r.stdout ?? ''}${r.stderr ?? ''}`.trim().split('\n').slice(-20).join('\n');
}

/**
 * Builds the distribution `name` from `manifest` once (idempotent; again only when the manifest
 * changed). Returns its binary, or null when Go is not installed; throws when Go is there but the
 * build fails.
 */
export function ensureCollector({ name, manifest }, { log = console.log } = {}) {
  const dist = { name, manifest };
  if (upToDate(dist)) return binaryOf(name);
  const go = goCommand();
  if (!go) return null;
  const toolDir = toolDirOf(name);
  log(`building the OpenTelemetry Collector ${OTELCOL_VERSION} ${name} with ocb into ${path.relative(repoRoot, toolDir)} …`);
  const started = Date.now();
  // ocb runs `go` from PATH: put the one found first (it may be /usr/local/go/bin/go, off PATH).
  const env = { ...process.env, CGO_ENABLED: '0', PATH: path.isAbsolute(go) ? `${path.dirname(go)}${path.delimiter}${process.env.PATH ?? ''}` : process.env.PATH };
  // Built beside the final folder and renamed at the end: an interrupted or concurrent build never
  // leaves a folder that looks installed.
  const staging = `${toolDir}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(path.join(staging, 'bin'), { recursive: true });
  try {
    const stagedBuilder = path.join(staging, 'bin', 'builder');
    const found = installedBuilder();
    if (found) {
      copyFileSync(found, stagedBuilder);
    } else {
      const module = `go.opentelemetry.io/collector/cmd/builder@${OTELCOL_VERSION}`;
      const r = spawnSync(go, ['install', module], { env: { ...env, GOBIN: path.dirname(stagedBuilder) }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
      if (r.status !== 0) throw new Error(`go install ${module} failed (is the Go module proxy reachable?)\n${tail(r)}`);
    }
    // output_path in the manifest is relative: the build runs inside the staging folder.
    const r = spawnSync(stagedBuilder, ['--config', manifest], { cwd: staging, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (r.status !== 0) throw new Error(`ocb --config ${path.relative(repoRoot, manifest)} failed (is the Go module proxy reachable?)\n${tail(r)}`);
    if (!existsSync(path.join(staging, name, name))) throw new Error(`ocb left no ${name} binary in ${staging}`);
    copyFileSync(manifest, path.join(staging, 'builder-config.yaml'));
    rmSync(toolDir, { recursive: true, force: true }); // a build from an older manifest
    try {
      renameSync(staging, toolDir);
    } catch (err) {
      if (!upToDate(dist)) throw err; // else another process finished first
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  log(`built the OpenTelemetry Collector ${name} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return binaryOf(name);
}

/** The forwarding collector of the OTLP receivers' end-to-end test. */
export const ensureOtelcol = (opts = {}) => ensureCollector(FORWARD, opts);
