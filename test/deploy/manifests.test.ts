// The Kubernetes manifests (deploy/k8s): the example overlay rendered by kustomize, validated by
// kubeconform in strict mode against the Kubernetes JSON schemas, and checked against what the
// services need: probes on the real health endpoints, resource requests, a PodDisruptionBudget per
// service, and every variable each service's env schema requires, with values that schema accepts.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { parseConfig } from '@llm/config';
import { httpServices, requiredKeys, serviceOfEntry, serviceSchemas } from './service-schemas.ts';

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  [field: string]: unknown;
}
interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean }; configMapKeyRef?: { name: string; key: string; optional?: boolean } };
}
interface Probe { httpGet?: { path: string; port: string | number } }
interface Container {
  name: string;
  image: string;
  args?: string[];
  ports?: Array<{ name?: string; containerPort: number }>;
  env?: EnvVar[];
  envFrom?: Array<{ configMapRef?: { name: string }; secretRef?: { name: string } }>;
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
}
interface Deployment extends K8sObject {
  spec: { replicas?: number; selector: { matchLabels: Record<string, string> }; template: { metadata: { labels: Record<string, string> }; spec: { containers: Container[] } } };
}

const repoRoot = path.resolve(import.meta.dirname, '../..');
const overlay = path.join(repoRoot, 'deploy/k8s/overlays/example');
// @ts-expect-error plain .mjs module without types (deploy scripts run before npm install)
const tools = await import('../../deploy/k8s/tools.mjs');

let rendered = '';
let objects: K8sObject[] = [];
let kubeconform = '';
let schemas = '';

beforeAll(() => {
  // Installed by deploy/bin/test.mjs before vitest starts; this only finds them (or builds them when
  // vitest is run directly: about a minute on a machine whose Go module cache is empty).
  const t = tools.ensureManifestTools({ log: () => undefined }) as { kustomize: string; kubeconform: string; schemas: string };
  kubeconform = t.kubeconform;
  schemas = t.schemas;
  const r = spawnSync(t.kustomize, ['build', overlay], { encoding: 'utf8' });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  rendered = r.stdout;
  objects = parseAllDocuments(rendered).map((d) => d.toJS() as K8sObject);
}, 600_000);

const ofKind = <T extends K8sObject>(kind: string): T[] => objects.filter((o) => o.kind === kind) as T[];
const deployments = (): Deployment[] => ofKind<Deployment>('Deployment');
const byName = (kind: string, name: string): K8sObject | undefined => objects.find((o) => o.kind === kind && o.metadata.name === name);
const selects = (selector: Record<string, string>, labels: Record<string, string>): boolean =>
  Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels[k] === v);
const mainContainer = (d: Deployment): Container => d.spec.template.spec.containers[0]!;

/** The environment a container gets, with values resolved from the rendered ConfigMaps and Secrets. */
function environmentOf(c: Container): Record<string, string> {
  const env: Record<string, string> = {};
  const dataOf = (kind: 'ConfigMap' | 'Secret', name: string): Record<string, string> => {
    const o = byName(kind, name) as (K8sObject & { data?: Record<string, string> }) | undefined;
    if (!o) throw new Error(`${c.name} refers to the ${kind} ${name}, which the overlay does not render`);
    const data = o.data ?? {};
    return kind === 'Secret' ? Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')])) : data;
  };
  for (const from of c.envFrom ?? []) {
    if (from.configMapRef) Object.assign(env, dataOf('ConfigMap', from.configMapRef.name));
    if (from.secretRef) Object.assign(env, dataOf('Secret', from.secretRef.name));
  }
  for (const e of c.env ?? []) {
    const ref = e.valueFrom?.secretKeyRef ?? e.valueFrom?.configMapKeyRef;
    if (!ref) { env[e.name] = e.value ?? ''; continue; }
    const value = dataOf(e.valueFrom?.secretKeyRef ? 'Secret' : 'ConfigMap', ref.name)[ref.key];
    if (value === undefined && !ref.optional) throw new Error(`${c.name}: ${e.name} refers to the missing key ${ref.key} of ${ref.name}`);
    if (value !== undefined) env[e.name] = value;
  }
  return env;
}

describe('Kubernetes manifests (example overlay)', () => {
  it('when the overlay is rendered, then kubeconform finds every object valid against the strict Kubernetes schemas', () => {
    const r = spawnSync(kubeconform, [
      '-strict', '-summary', '-output', 'json',
      '-schema-location', path.join(schemas, '{{ .ResourceKind }}{{ .KindSuffix }}.json'),
      '-',
    ], { input: rendered, encoding: 'utf8' });
    const report = JSON.parse(r.stdout) as { resources: unknown[]; summary: { valid: number; invalid: number; errors: number; skipped: number } };
    expect(report.resources).toEqual([]);
    expect(report.summary).toEqual({ valid: objects.length, invalid: 0, errors: 0, skipped: 0 });
    expect(r.status).toBe(0);
  }, 60_000);

  it('when an object breaks its schema, then kubeconform reports it (the check can fail)', () => {
    // One PodDisruptionBudget with a misspelt field (validating one object keeps this quick).
    const pdb = rendered.split(/^---$/m).find((doc) => /^kind: PodDisruptionBudget$/m.test(doc))!;
    const broken = pdb.replace(/^( *)maxUnavailable: 1$/m, '$1maxUnavailable: 1\n$1minAvailabe: 1');
    expect(broken).not.toBe(pdb);
    const r = spawnSync(kubeconform, ['-strict', '-schema-location', path.join(schemas, '{{ .ResourceKind }}{{ .KindSuffix }}.json'), '-'], { input: broken, encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/PodDisruptionBudget .*additional properties 'minAvailabe' not allowed/);
  }, 60_000);

  it('when rendered, then there is one Deployment per separately deployed service, each running its built entry point', () => {
    const services = deployments().map((d) => serviceOfEntry(mainContainer(d).args ?? []));
    expect(services.sort()).toEqual(Object.keys(serviceSchemas).sort());
    for (const d of deployments()) {
      expect(d.metadata.name).toBe(serviceOfEntry(mainContainer(d).args ?? []));
      expect(mainContainer(d).image).toBe('registry.example.com/llm-backend:0.1.0');
    }
  });

  it('when rendered, then every Deployment probes /healthz (liveness, start-up) and /readyz (readiness) and is scraped on its management port, serves its API (if any) on its HTTP port, and requests resources', () => {
    for (const d of deployments()) {
      const c = mainContainer(d);
      const http = c.ports?.find((p) => p.name === 'http');
      // Only the services with an API have an HTTP port; the others serve the management port alone.
      expect(http?.containerPort, d.metadata.name).toBe((httpServices as readonly string[]).includes(d.metadata.name) ? 8000 : undefined);
      expect(c.ports?.find((p) => p.name === 'management')?.containerPort, d.metadata.name).toBe(9464);
      expect(c.livenessProbe?.httpGet, d.metadata.name).toEqual({ path: '/healthz', port: 'management' });
      expect(c.startupProbe?.httpGet, d.metadata.name).toEqual({ path: '/healthz', port: 'management' });
      expect(c.readinessProbe?.httpGet, d.metadata.name).toEqual({ path: '/readyz', port: 'management' });
      const annotations = (d.spec.template.metadata as { annotations?: Record<string, string> }).annotations ?? {};
      expect(annotations, d.metadata.name).toMatchObject({ 'prometheus.io/scrape': 'true', 'prometheus.io/port': '9464', 'prometheus.io/path': '/metrics' });
      expect(Object.keys(c.resources?.requests ?? {}).sort(), d.metadata.name).toEqual(['cpu', 'memory']);
      expect(c.resources?.limits?.memory, d.metadata.name).toBeDefined();
    }
  });

  it('when rendered, then every Deployment is covered by exactly one PodDisruptionBudget that lets a node drain proceed', () => {
    const pdbs = ofKind<K8sObject & { spec: { selector: { matchLabels: Record<string, string> }; maxUnavailable?: number; minAvailable?: number } }>('PodDisruptionBudget');
    for (const d of deployments()) {
      const covering = pdbs.filter((p) => selects(p.spec.selector.matchLabels, d.spec.template.metadata.labels));
      expect(covering, d.metadata.name).toHaveLength(1);
      const p = covering[0]!;
      const replicas = d.spec.replicas ?? 1;
      const allowed = p.spec.maxUnavailable ?? replicas - (p.spec.minAvailable ?? replicas);
      expect(allowed, d.metadata.name).toBeGreaterThanOrEqual(1);
    }
  });

  it('when rendered, then the HTTP services have a Service each and the gateway routes to them', () => {
    for (const name of httpServices) {
      const svc = byName('Service', name) as (K8sObject & { spec: { selector: Record<string, string>; ports: Array<{ port: number; targetPort: string }> } }) | undefined;
      expect(svc, name).toBeDefined();
      const d = deployments().find((x) => x.metadata.name === name)!;
      expect(selects(svc!.spec.selector, d.spec.template.metadata.labels), name).toBe(true);
      expect(svc!.spec.ports).toEqual([expect.objectContaining({ port: 8000, targetPort: 'http' })]);
    }
    const gw = environmentOf(mainContainer(deployments().find((d) => d.metadata.name === 'gateway')!));
    expect(gw).toMatchObject({ COMMAND_URL: 'http://command:8000', QUERY_URL: 'http://query:8000', PROJECTOR_URL: 'http://projector-spans:8000' });
  });

  it('when rendered, then the otlp Service exposes the command replicas\' OTLP receivers on the standard ports (gRPC 4317, HTTP 4318)', () => {
    const svc = byName('Service', 'otlp') as (K8sObject & { spec: { selector: Record<string, string>; ports: Array<{ name: string; port: number; targetPort: string }> } }) | undefined;
    const command = deployments().find((x) => x.metadata.name === 'command')!;
    expect(selects(svc!.spec.selector, command.spec.template.metadata.labels)).toBe(true);
    expect(svc!.spec.ports.map((p) => [p.port, p.targetPort])).toEqual([[4317, 'otlp-grpc'], [4318, 'otlp-http']]);
    expect(mainContainer(command).ports).toEqual(expect.arrayContaining([{ name: 'otlp-grpc', containerPort: 4317 }, { name: 'otlp-http', containerPort: 4318 }]));
    // The ports the receivers listen on are the defaults of the command service's schema.
    const env = parseConfig(serviceSchemas.command!, environmentOf(mainContainer(command)));
    expect(env.ok && [env.config.OTLP_GRPC_PORT, env.config.OTLP_HTTP_PORT]).toEqual([4317, 4318]);
  });

  it('when rendered, then each service gets every variable its env schema requires, and the schema accepts the whole environment', () => {
    for (const d of deployments()) {
      const service = d.metadata.name;
      const schema = serviceSchemas[service]!;
      const c = mainContainer(d);
      const env = environmentOf(c);
      for (const key of requiredKeys(schema)) expect(env[key], `${service}: ${key}`).toBeTruthy();
      // Explicit entries must be variables the service reads (a misspelt name would be ignored).
      for (const e of c.env ?? []) expect(Object.keys(schema.shape), `${service} sets ${e.name}`).toContain(e.name);
      const parsed = parseConfig(schema, env);
      expect(parsed.ok ? [] : parsed.problems, service).toEqual([]);
    }
  });

  it('when rendered, then the split deployment uses the external ClickHouse and every throttle divides by the real replica count', () => {
    for (const d of deployments()) {
      const env = environmentOf(mainContainer(d));
      // Without CLICKHOUSE_URL a process opens its own embedded engine: in separate pods that is a
      // separate, empty database per pod.
      if ('CLICKHOUSE_URL' in serviceSchemas[d.metadata.name]!.shape) expect(env.CLICKHOUSE_URL, d.metadata.name).toMatch(/^https?:\/\//);
      if ('THROTTLE_REPLICAS' in serviceSchemas[d.metadata.name]!.shape && d.metadata.name !== 'projector-usage') {
        expect(env.THROTTLE_REPLICAS, d.metadata.name).toBe(String(d.spec.replicas ?? 1));
      }
    }
    expect(deployments().find((d) => d.metadata.name === 'query')?.spec.replicas).toBeGreaterThanOrEqual(2);
    expect(deployments().find((d) => d.metadata.name === 'command')?.spec.replicas).toBeGreaterThanOrEqual(2);
  });
});
