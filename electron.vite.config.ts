import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  main: {
    build: {
      // Pure-JavaScript libraries every start loads, bundled into the chunks instead of resolved file
      // by file from node_modules at run time: zod, drizzle-orm, jose and Fastify were some 300 module
      // files, each a resolve, a package.json read and a compile (docs/benchmarks.md, start-up).
      // better-sqlite3 (native) stays outside; PDF and e-mail libraries load on first use
      // (platform/lazyLibraries.ts).
      externalizeDeps: { exclude: ['zod', 'drizzle-orm', 'jose', 'fastify'] },
      outDir: 'out/main',
      // The desktop app, the headless server (`npm run serve`) and the CLI (`node out/main/cli.js`)
      // from one build, sharing their chunks.
      rollupOptions: {
        input: { index: resolve('src-main/electron/main.ts'), serve: resolve('src-main/serve.ts'), cli: resolve('src-main/cli.ts') },
        output: { chunkFileNames: 'chunks/shipdesk-[hash].js' },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // The sandboxed preload cannot require() packages: bundle everything it imports, as CommonJS.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve('src-main/electron/preload.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src-renderer',
    plugins: [react()],
    build: {
      outDir: 'out/renderer',
      rollupOptions: { input: { index: resolve('src-renderer/index.html') } },
    },
  },
});
