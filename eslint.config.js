// `npm run lint` (and the first step of `npm test`): typed lint of every TypeScript file with a small
// rule set — the rules catch what the compiler does not (README, Decisions). ESLint's defaults
// still parse the plain .mjs scripts, so a syntax error there fails too.
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';

const NO_OTHER_SERVICE = { group: ['@llm/service-*'], message: 'A service imports no other service: shared code lives in packages/.' };

export default defineConfig(
  globalIgnores(['**/dist/', '**/.data/', '.deps/']),
  {
    files: ['**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: {
        // tsconfig.json covers src/ and test/ of every workspace and test/; the config and scripts
        // outside it get a default project with the same compiler options.
        projectService: {
          allowDefaultProject: ['vitest.config.ts', 'packages/*/scripts/*.ts'],
          defaultProject: 'tsconfig.json',
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // A promise nobody awaits loses its rejection (an unhandled rejection kills the process)
      // and its ordering (shutdown, offsets committed before the write).
      '@typescript-eslint/no-floating-promises': 'error',
      // Same family, and clean today: a promise where a callback's result is ignored (an async
      // listener or express handler whose rejection nobody sees), `await` on a non-promise.
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      // verbatimModuleSyntax keeps every import not marked `type`; these two keep type-only
      // imports out of the emitted code, including the `import {}` that `{ type A }` leaves.
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-import-type-side-effects': 'error',
      // No `any` in what packages and services export (nor inside them).
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  // Layering, enforced (issue 27): packages never import services; a service imports no other
  // service (the all-in-one process is the one composition root); adapters never import HTTP code;
  // domain code does no I/O. docs/architecture.md describes the layers. (A later block's
  // no-restricted-imports replaces an earlier one's for the files both match, so each repeats the
  // rule of the service level.)
  {
    files: ['packages/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['@llm/service-*'], message: 'Packages never import services: move the shared code into a package.' }] }] },
  },
  {
    files: ['services/*/src/**/*.ts'],
    ignores: ['services/all-in-one/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_OTHER_SERVICE] }] },
  },
  {
    files: ['services/*/src/**/adapters/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [NO_OTHER_SERVICE, { group: ['**/http/*'], message: 'Adapters never import HTTP code: move the shared type next to the adapter.' }] }],
    },
  },
  {
    files: ['services/*/src/**/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: ['pg', '@clickhouse/client', 'chdb', 'node:fs', 'node:fs/promises', 'node:net', 'node:child_process', 'express'].map((name) => ({ name, message: 'Domain code does no I/O.' })),
        patterns: [
          NO_OTHER_SERVICE,
          { group: ['@llm/clickhouse', '@llm/postgres', '@llm/kafka', '**/adapters/*', '**/http/*'], message: 'Domain code does no I/O: it is called by adapters and routes, not the other way round.' },
        ],
      }],
    },
  },
  {
    // Tests read response bodies loosely (`(await res.json()) as any`) and export nothing.
    files: ['**/*.test.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
