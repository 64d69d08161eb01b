// docker-compose.yml, checked without Docker: parsed as Compose reads it (anchors, merge keys,
// `${VAR:-default}` interpolation with an empty shell environment) and cross-checked against each
// service's env schema: every variable a service requires is set, and the schema accepts the lot.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseConfig } from '@llm/config';
import { requiredKeys, serviceOfEntry, serviceSchemas } from './service-schemas.ts';

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[];
  environment?: Record<string, string | number | boolean | null>;
  deploy?: { replicas?: number };
  depends_on?: unknown;
}

const repoRoot = path.resolve(import.meta.dirname, '../..');
const compose = parse(readFileSync(path.join(repoRoot, 'docker-compose.yml'), 'utf8'), { merge: true }) as { services: Record<string, ComposeService> };

/** Compose's interpolation as a shell with none of the variables set sees it. */
function interpolate(value: string, shell: Record<string, string> = {}): string {
  return value.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?-)([^}]*))?\}/g, (whole, name: string | undefined, op: string | undefined, fallback: string | undefined) => {
    if (whole === '$$') return '$';
    const set = shell[name!];
    if (op === ':-') return set ? set : fallback ?? '';
    if (op === '-') return set !== undefined ? set : fallback ?? '';
    return set ?? '';
  });
}

const appServices = Object.entries(compose.services).filter(([, s]) => s.build?.dockerfile === 'deploy/docker/Dockerfile');
const environmentOf = (s: ComposeService): Record<string, string> =>
  Object.fromEntries(Object.entries(s.environment ?? {}).map(([k, v]) => [k, interpolate(v === null ? '' : String(v))]));

describe('docker-compose.yml', () => {
  it('when parsed, then every separately deployed service runs from the production image with its built entry point', () => {
    expect(existsSync(path.join(repoRoot, 'deploy/docker/Dockerfile'))).toBe(true);
    const services = appServices.map(([name, s]) => {
      expect(s.image, name).toBe('llm-backend:local');
      expect(s.command, name).toHaveLength(1);
      const service = serviceOfEntry(s.command ?? []);
      expect(service, name).toBe(name);
      expect(existsSync(path.join(repoRoot, 'services', name, 'src/main.ts')), name).toBe(true);
      return service;
    });
    expect(services.sort()).toEqual(Object.keys(serviceSchemas).sort());
  });

  it('when interpolated with no variables set, then each service gets every variable its schema requires and the schema accepts the whole environment', () => {
    for (const [name, s] of appServices) {
      const schema = serviceSchemas[name]!;
      const env = environmentOf(s);
      for (const key of requiredKeys(schema)) expect(env[key], `${name}: ${key}`).toBeTruthy();
      const parsed = parseConfig(schema, env);
      expect(parsed.ok ? [] : parsed.problems, name).toEqual([]);
    }
  });

  it('when parsed, then every variable the file sets is one some service reads (a misspelt name would be ignored)', () => {
    const known = new Set(Object.values(serviceSchemas).flatMap((s) => Object.keys(s.shape)));
    for (const [name, s] of appServices) {
      for (const key of Object.keys(s.environment ?? {})) expect(known.has(key), `${name} sets ${key}`).toBe(true);
    }
  });

  it('when parsed, then the split services use the ClickHouse server, throttles divide by the replica count, and the gateway reaches its upstreams', () => {
    for (const [name, s] of appServices) {
      const env = environmentOf(s);
      if ('CLICKHOUSE_URL' in serviceSchemas[name]!.shape) expect(env.CLICKHOUSE_URL, name).toMatch(/^https?:\/\/.+@clickhouse:8123$/);
    }
    for (const name of ['command', 'query']) {
      const s = compose.services[name]!;
      expect(s.deploy?.replicas, name).toBeGreaterThanOrEqual(2);
      expect(environmentOf(s).THROTTLE_REPLICAS, name).toBe(String(s.deploy?.replicas));
    }
    const gw = environmentOf(compose.services.gateway!);
    for (const key of ['COMMAND_URL', 'QUERY_URL', 'PROJECTOR_URL']) {
      const host = new URL(gw[key]!).hostname;
      expect(compose.services[host], `${key} → ${host}`).toBeDefined();
      expect(environmentOf(compose.services[host]!).PORT ?? '8000').toBe(new URL(gw[key]!).port);
    }
  });

  it('when a default is given, then interpolation takes it only while the variable is unset or empty', () => {
    expect(interpolate('${A:-x}')).toBe('x');
    expect(interpolate('${A:-x}', { A: '' })).toBe('x');
    expect(interpolate('${A-x}', { A: '' })).toBe('');
    expect(interpolate('${A:-x}', { A: 'y' })).toBe('y');
    expect(interpolate('$${A}')).toBe('${A}');
  });
});
