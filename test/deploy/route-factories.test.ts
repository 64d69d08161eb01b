// Every route factory of the command and query services has one shape, `(deps, guards) → handlers`
// (`RouteFactory` of @llm/http): what it needs as one object, the middleware chains its routes run
// behind as one object of named chains. A factory with another signature fails here.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const routeModules = (service: string): string[] => {
  const src = path.join(repoRoot, 'services', service, 'src');
  return (readdirSync(src, { recursive: true }) as string[]).filter((f) => /(^|\/)http\/[a-z-]+-routes\.ts$/.test(f)).sort().map((f) => path.join(src, f));
};

async function oddFactories(files: string[]): Promise<string[]> {
  const odd: string[] = [];
  for (const f of files) {
    const mod = await import(pathToFileURL(f).href) as Record<string, unknown>;
    const factories = Object.entries(mod).filter(([name, v]) => /Routes$/.test(name) && typeof v === 'function') as Array<[string, (...a: unknown[]) => unknown]>;
    const rel = path.relative(repoRoot, f);
    if (factories.length === 0) odd.push(`${rel}: no *Routes factory`);
    for (const [name, fn] of factories) if (fn.length !== 2) odd.push(`${rel}: ${name} takes ${fn.length} parameters`);
  }
  return odd;
}

describe('route factories', () => {
  it('the command service: found in every feature folder, each (deps, guards)', async () => {
    const files = routeModules('command');
    expect(new Set(files.map((f) => path.relative(path.join(repoRoot, 'services/command/src'), f).split(path.sep)[0]))).toEqual(new Set(['accounts', 'admin', 'annotations', 'artifacts', 'billing', 'evaluations', 'ingest', 'vault', 'webhooks']));
    expect(await oddFactories(files)).toEqual([]);
  });

  it('the query service: each (deps, guards)', async () => {
    const files = routeModules('query');
    expect(files.length).toBeGreaterThan(15);
    expect(await oddFactories(files)).toEqual([]);
  });
});
