import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: files run in parallel, but not so many that argon2 and PostgreSQL starve each other.
    maxWorkers: 2,
    fileParallelism: true,
  },
});
