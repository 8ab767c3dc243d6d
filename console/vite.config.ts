// Builds the console (framework-free TypeScript) into dist/console, which `brabo serve` serves at
// `/`. Everything is bundled (the phoenix client included): no CDN, no external font, offline.
import { resolve } from 'node:path';
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  publicDir: resolve(import.meta.dirname, 'public'),
  logLevel: 'warn',
  build: {
    outDir: resolve(import.meta.dirname, '../dist/console'),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    // One small app: no inlined assets (the CSP allows only same-origin files).
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
});
