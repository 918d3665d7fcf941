import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  main: {
    build: {
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
