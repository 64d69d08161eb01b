// Regenerates src/schema.ts (the API's types) from the OpenAPI document the services serve, with
// openapi-typescript. `--check` writes nothing and fails when the committed file differs: `npm run
// lint` runs it, so a route or contract change without a regenerated client fails lint.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generateSchemaSource } from '../src/generate.ts';

const target = fileURLToPath(new URL('../src/schema.ts', import.meta.url));
const source = await generateSchemaSource();

if (process.argv.includes('--check')) {
  let current = '';
  try { current = readFileSync(target, 'utf8'); } catch { /* missing: stale */ }
  if (current !== source) {
    console.error('packages/client/src/schema.ts is stale: run `npm run generate -w @llm/client` and commit it.');
    process.exit(1);
  }
  console.log('packages/client/src/schema.ts matches the OpenAPI document.');
} else {
  writeFileSync(target, source);
  console.log(`wrote ${target}`);
}
