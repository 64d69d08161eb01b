// telemetrygen, the OpenTelemetry Collector's load generator (an OTLP client nobody here wrote), for
// the OTLP receivers' end-to-end test and bench:collector. Built once from the Go module proxy with
// `go install github.com/open-telemetry/opentelemetry-collector-contrib/cmd/telemetrygen@<version>`
// into .data/tools/ (the path bench:collector uses). Without Go nothing is built and the test that
// needs it skips, saying why.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// v0.161.0 is the newest the module proxy here serves (test/bench/collector.bench.ts).
export const TELEMETRYGEN_VERSION = 'v0.161.0';
const toolDir = path.join(repoRoot, '.data', 'tools', `telemetrygen-${TELEMETRYGEN_VERSION}`);
export const telemetrygenBinary = path.join(toolDir, 'telemetrygen');

/** The `go` command: GO_BIN, else `go` on PATH, else the usual /usr/local/go install; null if none runs. */
export function goCommand() {
  for (const cmd of [process.env.GO_BIN, 'go', '/usr/local/go/bin/go'].filter(Boolean)) {
    const r = spawnSync(cmd, ['version'], { encoding: 'utf8' });
    if (!r.error && r.status === 0) return cmd;
  }
  return null;
}

/**
 * Builds telemetrygen once (idempotent). Returns its path, or null when Go is not installed (the
 * caller says so and skips); throws when Go is there but the build fails.
 */
export function ensureTelemetrygen({ log = console.log } = {}) {
  if (existsSync(telemetrygenBinary)) return telemetrygenBinary;
  const go = goCommand();
  if (!go) return null;
  const module = `github.com/open-telemetry/opentelemetry-collector-contrib/cmd/telemetrygen@${TELEMETRYGEN_VERSION}`;
  log(`building telemetrygen ${TELEMETRYGEN_VERSION} with go install into ${path.relative(repoRoot, toolDir)} …`);
  const started = Date.now();
  // Built beside the final folder and renamed at the end: an interrupted or concurrent build never
  // leaves a folder that looks installed.
  const staging = `${toolDir}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  try {
    const r = spawnSync(go, ['install', module], { env: { ...process.env, GOBIN: staging, CGO_ENABLED: '0' }, stdio: ['ignore', 'inherit', 'inherit'] });
    if (r.status !== 0) throw new Error(`go install ${module} failed (is the Go module proxy reachable?)`);
    if (!existsSync(path.join(staging, 'telemetrygen'))) throw new Error(`go install left no telemetrygen binary in ${staging}`);
    try {
      renameSync(staging, toolDir);
    } catch (err) {
      if (!existsSync(telemetrygenBinary)) throw err; // else another process finished first
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  log(`built telemetrygen in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return telemetrygenBinary;
}
