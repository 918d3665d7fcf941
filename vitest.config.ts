import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src-main/**/*.test.ts', 'src-shared/**/*.test.ts', 'src-renderer/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 20_000,
    // Starts CUPS with a cups-pdf queue for the printing tests; never fails the run (see the file).
    globalSetup: ['src-main/testing/cupsSetup.ts'],
  },
});
