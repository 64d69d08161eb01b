// The tools that render and validate these manifests in `npm test` (test/deploy/), installed once
// under .data/tools/ from the registries this project may reach:
// - kustomize and kubeconform: `go install` from the Go module proxy (pure Go, no C toolchain);
// - the Kubernetes JSON schemas: the `kubernetes-validate` wheel from PyPI, which bundles them per
//   Kubernetes version. kubeconform's default schema location (a GitHub repository) is out of reach,
//   so it reads this local copy instead.
// Each is staged beside its final folder and renamed at the end, so an interrupted or concurrent
// install never leaves a folder that looks complete.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const toolsDir = path.join(repoRoot, '.data', 'tools');

export const KUSTOMIZE_VERSION = 'v5.8.1';
export const KUBECONFORM_VERSION = 'v0.7.0';
/** The wheel's version and the Kubernetes version whose schemas are validated against. */
export const KUBERNETES_VALIDATE_VERSION = '1.37.0';
export const KUBERNETES_VERSION = '1.34.0';

function firstRunnable(candidates, args) {
  for (const cmd of candidates.filter(Boolean)) {
    const r = spawnSync(cmd, args, { encoding: 'utf8' });
    if (!r.error && r.status === 0) return cmd;
  }
  return null;
}

/** Runs `install(staging)` into a fresh staging folder and renames it to `finalDir`. */
function installOnce(finalDir, marker, what, install, log) {
  if (existsSync(path.join(finalDir, marker))) return;
  log(`installing ${what} into ${path.relative(repoRoot, finalDir)} …`);
  const started = Date.now();
  const staging = `${finalDir}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  try {
    install(staging);
    if (!existsSync(path.join(staging, marker))) throw new Error(`installing ${what} left no ${marker}`);
    try {
      renameSync(staging, finalDir);
    } catch (err) {
      if (!existsSync(path.join(finalDir, marker))) throw err; // else another process finished first
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  log(`installed ${what} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

function goInstall(modulePath, version, binary, log) {
  const dir = path.join(toolsDir, `${binary}-${version}`);
  installOnce(dir, binary, `${binary} ${version}`, (staging) => {
    const go = firstRunnable([process.env.GO_BIN, 'go', '/usr/local/go/bin/go'], ['version']);
    if (!go) throw new Error(`${binary} is built with go install and needs Go: install it (e.g. into /usr/local/go) or set GO_BIN`);
    const r = spawnSync(go, ['install', `${modulePath}@${version}`], {
      env: { ...process.env, GOBIN: staging, CGO_ENABLED: '0' },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    if (r.status !== 0) throw new Error(`go install ${modulePath}@${version} failed (is the Go module proxy reachable?)`);
  }, log);
  return path.join(dir, binary);
}

/** The kustomize binary (built once). */
export const ensureKustomize = ({ log = console.log } = {}) =>
  goInstall('sigs.k8s.io/kustomize/kustomize/v5', KUSTOMIZE_VERSION, 'kustomize', log);

/** The kubeconform binary (built once). */
export const ensureKubeconform = ({ log = console.log } = {}) =>
  goInstall('github.com/yannh/kubeconform/cmd/kubeconform', KUBECONFORM_VERSION, 'kubeconform', log);

/**
 * The strict JSON schemas of KUBERNETES_VERSION, one file per kind named as kubeconform looks them
 * up (`deployment-apps-v1.json`, `poddisruptionbudget-policy-v1.json`). Returns the folder.
 *
 * The wheel's kind files point at a shared `_definitions.json` through absolute kubernetes.io URLs
 * (its own validator resolves them in memory); kubeconform would fetch them. Dropping the `$id`s and
 * making the references relative lets it resolve them from the neighbouring file instead.
 */
export function ensureKubernetesSchemas({ log = console.log } = {}) {
  const dir = path.join(toolsDir, `k8s-schemas-v${KUBERNETES_VERSION}`);
  installOnce(dir, '_definitions.json', `Kubernetes ${KUBERNETES_VERSION} JSON schemas (kubernetes-validate ${KUBERNETES_VALIDATE_VERSION})`, (staging) => {
    const python = firstRunnable([process.env.PYTHON3, 'python3'], ['--version']);
    if (!python) throw new Error('the Kubernetes schemas come from a PyPI wheel: install python3 with pip, or set PYTHON3');
    const wheelDir = path.join(staging, 'wheel');
    const pip = spawnSync(python, ['-m', 'pip', 'download', '--quiet', '--disable-pip-version-check', '--no-deps', '--only-binary=:all:',
      '-d', wheelDir, `kubernetes-validate==${KUBERNETES_VALIDATE_VERSION}`], { stdio: ['ignore', 'inherit', 'inherit'] });
    if (pip.status !== 0) throw new Error(`pip download kubernetes-validate==${KUBERNETES_VALIDATE_VERSION} failed (is PyPI reachable?)`);
    const wheel = readdirSync(wheelDir).find((f) => f.endsWith('.whl'));
    if (!wheel) throw new Error('pip download left no wheel');
    // A wheel is a zip file; Python's zipfile reads it without an unzip command on the machine.
    const prefix = `kubernetes_validate/kubernetes-json-schema/v${KUBERNETES_VERSION}-local-strict/`;
    const extract = spawnSync(python, ['-c', [
      'import sys, zipfile, os',
      'wheel, prefix, out = sys.argv[1:4]',
      'z = zipfile.ZipFile(wheel)',
      'names = [n for n in z.namelist() if n.startswith(prefix) and n.endswith(".json")]',
      'assert names, "no schemas under " + prefix',
      '[open(os.path.join(out, n[len(prefix):]), "wb").write(z.read(n)) for n in names]',
    ].join('\n'), path.join(wheelDir, wheel), prefix, staging], { stdio: ['ignore', 'inherit', 'inherit'] });
    if (extract.status !== 0) throw new Error(`extracting ${prefix} from ${wheel} failed`);
    rmSync(wheelDir, { recursive: true, force: true });
    for (const f of readdirSync(staging)) {
      const file = path.join(staging, f);
      const schema = JSON.parse(readFileSync(file, 'utf8'));
      delete schema.$id;
      writeFileSync(file, JSON.stringify(schema).replaceAll('"$ref":"/api/_definitions.json#', '"$ref":"_definitions.json#'));
    }
  }, log);
  return dir;
}

/** All three, for deploy/bin/test.mjs to install before the tests run. */
export function ensureManifestTools({ log = console.log } = {}) {
  return { kustomize: ensureKustomize({ log }), kubeconform: ensureKubeconform({ log }), schemas: ensureKubernetesSchemas({ log }) };
}
