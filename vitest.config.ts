import { defineConfig } from 'vitest/config';

// Two projects: `unit` needs nothing running; `integration` runs against the real Kafka,
// Postgres and ClickHouse that deploy/bin/test.mjs starts once per run (see test/global-setup.ts).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/test/**/*.test.ts', 'services/*/test/**/*.test.ts', 'test/deploy/**/*.test.ts'],
          exclude: ['**/*.int.test.ts', '**/*.e2e.test.ts', '**/node_modules/**'],
        },
      },
      {
        test: {
          name: 'integration',
          include: ['**/*.int.test.ts', '**/*.e2e.test.ts'],
          exclude: ['**/node_modules/**'],
          globalSetup: ['test/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          // Stacks under test (and the service processes some tests spawn, which inherit this) shed
          // ingest only far behind: a test's burst on a loaded CI machine is not an overload.
          // test/e2e/overload.e2e.test.ts sets its own thresholds.
          // The OTLP receivers take any free port: test stacks run beside each other and beside `npm start`.
          env: { INGEST_SHED_LAG_MS: '30000', INGEST_MAX_LAG_MS: '120000', OTLP_HTTP_PORT: '0', OTLP_GRPC_PORT: '0' },
        },
      },
    ],
  },
});
