import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['{domain,platform,projections,workflows,api,web,console}/src/**/*.{unit,props}.spec.{ts,tsx}'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'int',
          include: ['{domain,platform,projections,workflows,api}/src/**/*.int.spec.ts', 'test/**/*.int.spec.ts'],
          environment: 'node',
          globalSetup: ['./test/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.e2e.spec.ts'],
          environment: 'node',
          globalSetup: ['./test/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
