// A core OpenTelemetry Collector (OTLP receiver → batch → OTLP/gRPC and OTLP/HTTP exporters) for the
// OTLP receivers' end-to-end test, which forwards traces through it to our OTLP ports as a user's
// collector would. Built once with the OpenTelemetry Collector Builder (ocb) from the Go module
// proxy, from deploy/local/otelcol/builder-config.yaml, into .data/tools/. Go's build and module
// caches stay where Go keeps them ($HOME), so another clone on the same machine rebuilds quickly.
// Without Go nothing is built and the test that needs it skips, saying why.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { goCommand } from './telemetrygen.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// The builder's version; the manifest pins every component to the same one.
export const OTELCOL_VERSION = 'v0.165.0';
const manifest = path.join(repoRoot, 'deploy', 'local', 'otelcol', 'builder-config.yaml');
const toolsDir = path.join(repoRoot, '.data', 'tools');
const toolDir = path.join(toolsDir, `otelcol-forward-${OTELCOL_VERSION}`);
export const otelcolBinary = path.join(toolDir, 'otelcol-forward', 'otelcol-forward');
// The manifest a build was made from, copied in last: a different one means rebuild.
const builtFrom = path.join(toolDir, 'builder-config.yaml');
// ocb itself: this tool's own, else the one bench:collector installed, else go install'ed here.
const builders = [path.join(toolDir, 'bin', 'builder'), path.join(toolsDir, `otelcol-bench-${OTELCOL_VERSION}`, 'bin', 'builder')];

function upToDate() {
  return existsSync(otelcolBinary) && existsSync(builtFrom) && readFileSync(builtFrom, 'utf8') === readFileSync(manifest, 'utf8');
}

/** The tail of a failed command's output, for the error. */
function tail(r) {
  return `${r.stdout ?? ''}${r.stderr ?? ''}`.trim().split('\n').slice(-20).join('\n');
}

/**
 * Builds the collector once (idempotent; again only when the manifest changed). Returns its path, or
 * null when Go is not installed (the caller says so and skips); throws when Go is there but the build
 * fails.
 */
export function ensureOtelcol({ log = console.log } = {}) {
  if (upToDate()) return otelcolBinary;
  const go = goCommand();
  if (!go) return null;
  log(`building the OpenTelemetry Collector ${OTELCOL_VERSION} (otlp → batch → otlp_grpc, otlp_http) with ocb into ${path.relative(repoRoot, toolDir)} …`);
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
    const found = builders.find((b) => existsSync(b));
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
    if (!existsSync(path.join(staging, 'otelcol-forward', 'otelcol-forward'))) throw new Error(`ocb left no otelcol-forward binary in ${staging}`);
    copyFileSync(manifest, path.join(staging, 'builder-config.yaml'));
    rmSync(toolDir, { recursive: true, force: true }); // a build from an older manifest
    try {
      renameSync(staging, toolDir);
    } catch (err) {
      if (!upToDate()) throw err; // else another process finished first
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  log(`built the OpenTelemetry Collector in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return otelcolBinary;
}
