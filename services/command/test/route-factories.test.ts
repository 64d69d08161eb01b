// Every route factory of the command service has one shape, `(deps, guards) → handlers`
// (`RouteFactory` of @llm/http): what it needs as one object, the middleware chains its routes run
// behind as one object of named chains. A factory with another signature fails here.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');
const routeModules = (readdirSync(src, { recursive: true }) as string[]).filter((f) => /(^|\/)http\/[a-z-]+-routes\.ts$/.test(f)).sort();

describe('route factories', () => {
  it('are found in every feature folder', () => {
    expect(routeModules.length).toBeGreaterThan(25);
    expect(new Set(routeModules.map((f) => f.split('/')[0]))).toEqual(new Set(['accounts', 'admin', 'billing', 'ingest', 'vault', 'webhooks']));
  });

  it('each take (deps, guards) and answer handlers by route id', async () => {
    const odd: string[] = [];
    for (const f of routeModules) {
      const mod = await import(pathToFileURL(path.join(src, f)).href) as Record<string, unknown>;
      const factories = Object.entries(mod).filter(([name, v]) => /Routes$/.test(name) && typeof v === 'function');
      if (factories.length === 0) odd.push(`${f}: no *Routes factory`);
      for (const [name, fn] of factories) if ((fn as (...a: unknown[]) => unknown).length !== 2) odd.push(`${f}: ${name} takes ${(fn as (...a: unknown[]) => unknown).length} parameters`);
    }
    expect(odd).toEqual([]);
  });
});
