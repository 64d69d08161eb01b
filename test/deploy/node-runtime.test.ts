// deploy/bin/node-runtime.mjs: the entry scripts run on a supported Node LTS. The choice is checked as a
// table; the fetch and re-run for real, by asking a fixture script for the LTS line other than the one
// running this test (fetched once from the npm registry into .data/node/, then cached); and npm under
// the supported node is checked to install without engine warnings.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

interface NodeRuntime {
  SUPPORTED_NODE_RANGE: string;
  PINNED_NODE: Record<string, string>;
  DEFAULT_NODE_LINE: number;
  isSupportedNode(version: string): boolean;
  chooseNode(o: { running: string; requested?: string }): { version: string | null; error?: string };
  ensureNodeBinary(version: string, o?: { log?: (m: string) => void }): string;
  npmCliPath(): string;
}

const repoRoot = path.resolve(import.meta.dirname, '../..');
// @ts-expect-error plain .mjs module without types (deploy scripts run before npm install)
const runtime = (await import('../../deploy/bin/node-runtime.mjs')) as NodeRuntime;
const { PINNED_NODE, SUPPORTED_NODE_RANGE, chooseNode, isSupportedNode } = runtime;
const probe = path.join(import.meta.dirname, 'fixtures/node-runtime-probe.mjs');

interface ProbeOutput { version: string; execPath: string; args: string[]; pathHead: string }

describe('the supported Node range', () => {
  it('when package.json states its engines, then they are the range the entry scripts enforce', () => {
    const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { engines: { node: string } };
    expect(pkg.engines.node).toBe(SUPPORTED_NODE_RANGE);
  });

  it.each([
    ['v20.20.2', false], ['v22.18.0', false], ['v22.19.0', true], ['v22.23.3', true], ['v23.11.0', false],
    ['v24.5.0', false], ['v24.6.0', true], ['v24.21.0', true], ['v26.1.0', true], ['garbage', false],
  ])('when the node is %s, then supported is %s', (version, supported) => {
    expect(isSupportedNode(version)).toBe(supported);
  });

  it('when a line is pinned, then its pinned version is supported and of that line', () => {
    for (const [line, version] of Object.entries(PINNED_NODE)) {
      expect(isSupportedNode(version)).toBe(true);
      expect(version.split('.')[0]).toBe(line);
    }
  });
});

describe('choosing the Node to run on', () => {
  it.each([
    ['v20.20.2', undefined, PINNED_NODE[24]],
    ['v20.20.2', '', PINNED_NODE[24]],
    ['v22.18.0', undefined, PINNED_NODE[24]],
    ['v22.20.0', undefined, null],
    ['v24.21.0', undefined, null],
    ['v24.21.0', '22', PINNED_NODE[22]],
    ['v20.20.2', '22', PINNED_NODE[22]],
    ['v22.20.0', '22', null],
    ['v22.20.0', '24', PINNED_NODE[24]],
    ['v24.21.0', 'v24.6.0', '24.6.0'],
    ['v24.21.0', '24.21.0', null],
    ['v20.20.2', 'system', null],
  ])('when running %s and LLM_NODE_VERSION is %j, then it runs on %j', (running, requested, version) => {
    expect(chooseNode({ running, requested })).toEqual({ version });
  });

  it.each(['23', '20', '20.20.2', '24.5.0', 'latest'])('when LLM_NODE_VERSION is %j, then it is refused', (requested) => {
    expect(chooseNode({ running: 'v24.21.0', requested }).error).toMatch(/LLM_NODE_VERSION/);
  });
});

describe('re-running an entry script on another Node', () => {
  // The LTS line this test does not run on: fetched (once) and re-run on for real.
  const otherLine = process.versions.node.startsWith('22.') ? '24' : '22';
  const otherVersion = PINNED_NODE[otherLine]!;
  const env = { ...process.env, LLM_NODE_VERSION: otherLine };

  beforeAll(() => {
    runtime.ensureNodeBinary(otherVersion, { log: () => {} });
  }, 600_000);

  it('when the script asks for the other LTS line, then it runs on it with its arguments, and its exit code comes back', () => {
    const r = spawnSync(process.execPath, [probe, '7', 'a b', '--flag'], { env, encoding: 'utf8' });
    expect(r.status).toBe(7);
    const out = JSON.parse(r.stdout.trim().split('\n').pop()!) as ProbeOutput;
    expect(out.version).toBe(`v${otherVersion}`);
    expect(out.execPath).toBe(path.join(repoRoot, '.data/node', otherVersion, 'bin/node'));
    expect(out.args).toEqual(['a b', '--flag']);
    // What the script runs by name (npm and its lifecycle scripts) finds the same node first.
    expect(out.pathHead).toBe(path.dirname(out.execPath));
  });

  it('when the launching process gets SIGTERM, then the re-run script gets it, and its exit code comes back', async () => {
    const child = spawn(process.execPath, [probe, 'wait'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (b: Buffer) => { stdout += b.toString(); });
    await expect.poll(() => stdout, { timeout: 30_000 }).toContain(otherVersion);
    child.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(stdout).toContain('SIGTERM');
    expect(code).toBe(42);
  });

  it('when the re-run script dies of a signal, then the launching process ends with that signal', () => {
    const r = spawnSync(process.execPath, [probe, 'self-kill'], { env, encoding: 'utf8', timeout: 60_000 });
    expect(r.stdout).toContain(otherVersion);
    expect(r.signal).toBe('SIGTERM');
  });
});

describe('the TypeScript scripts (npm run ops, replay, redrive, secrets:rotate, bench:*)', () => {
  const runTs = path.join(repoRoot, 'deploy/bin/run-ts.mjs');
  const tsProbe = path.join(import.meta.dirname, 'fixtures/run-ts-probe.ts');
  const otherLine = process.versions.node.startsWith('22.') ? '24' : '22';
  const otherVersion = PINNED_NODE[otherLine]!;

  beforeAll(() => {
    runtime.ensureNodeBinary(otherVersion, { log: () => {} });
  }, 600_000);

  it('when package.json runs a TypeScript file, then it runs it through run-ts.mjs, which chooses the node first', () => {
    const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    const tsScripts = Object.entries(pkg.scripts).filter(([, cmd]) => /\.ts\b/.test(cmd) && !cmd.includes('deploy/bin/test.mjs'));
    expect(tsScripts.map(([name]) => name)).toEqual(expect.arrayContaining(['ops', 'replay', 'redrive', 'secrets:rotate', 'bench:ingest', 'bench:projector']));
    for (const [name, cmd] of tsScripts) {
      expect({ name, cmd }).toEqual({ name, cmd: expect.stringMatching(/^node (--\S+ )*deploy\/bin\/run-ts\.mjs \S+\.ts/) });
    }
  });

  it('when another LTS line is asked for, then the script runs on it with its arguments and node flags, and its exit code comes back', () => {
    const r = spawnSync(process.execPath, ['--max-semi-space-size=32', runTs, tsProbe, '3', 'a b', '--flag'], {
      env: { ...process.env, LLM_NODE_VERSION: otherLine }, encoding: 'utf8',
    });
    expect(r.status).toBe(3);
    const out = JSON.parse(r.stdout.trim().split('\n').pop()!) as { version: string; args: string[]; execArgv: string[] };
    expect(out.version).toBe(`v${otherVersion}`);
    expect(out.args).toEqual(['a b', '--flag']);
    expect(out.execArgv).toEqual(['--max-semi-space-size=32', '--import', 'tsx']);
  });
});

describe('installing dependencies under the supported node', () => {
  it('when npm runs under this node, then the install reports no engine warnings', () => {
    expect(isSupportedNode(process.version)).toBe(true);
    const r = spawnSync(process.execPath, [runtime.npmCliPath(), 'install', '--dry-run', '--ignore-scripts', '--no-audit', '--no-fund'], {
      cwd: repoRoot, encoding: 'utf8', timeout: 300_000,
    });
    expect(r.status).toBe(0);
    expect(`${r.stdout}${r.stderr}`).not.toMatch(/EBADENGINE|Unsupported engine/);
  });
});
