// The headless browser of the docs-page test: Debian's chromium package, installed by the test run
// when it is missing (apt-get as root; apt packages persist on the machine, so later runs skip it).
// No browser is ever downloaded from elsewhere: playwright-core only drives this binary.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function run(cmd: string, args: string[]): { ok: boolean; output: string } {
  const r = spawnSync(cmd, args, { encoding: 'utf8', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }, timeout: 900_000 });
  return { ok: r.status === 0, output: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}` };
}

/** Returns the browser's path, installing the Debian package first if needed; throws saying why it cannot. */
export function ensureChromium(): string {
  if (existsSync(CHROMIUM_PATH)) return CHROMIUM_PATH;
  if (process.getuid?.() !== 0) {
    throw new Error(`${CHROMIUM_PATH} is missing and this run is not root: install it with \`apt-get install -y chromium\` (or set CHROMIUM_PATH)`);
  }
  let install = run('apt-get', ['install', '-y', '--no-install-recommends', 'chromium']);
  // A fresh machine has no package lists yet.
  if (!install.ok) {
    const update = run('apt-get', ['update']);
    if (!update.ok) throw new Error(`apt-get update failed:\n${update.output.slice(-2000)}`);
    install = run('apt-get', ['install', '-y', '--no-install-recommends', 'chromium']);
  }
  if (!install.ok || !existsSync(CHROMIUM_PATH)) throw new Error(`apt-get install chromium failed:\n${install.output.slice(-2000)}`);
  return CHROMIUM_PATH;
}
