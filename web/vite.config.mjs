// Builds the dashboard into web/dist (served by the api under `/app/`, src/http/web-app.ts).
// Hashed file names under assets/ (cached for a year), one module entry, no inline script:
// the CSP allows only 'self' (issue 19).
import preact from '@preact/preset-vite';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  // The dashboard's one prefix (issue 30): asset URLs and the SPA's router (import.meta.env.BASE_URL).
  base: '/app/',
  plugins: [preact({ prefreshEnabled: false, devToolsEnabled: false })],
  logLevel: 'warn',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    // Inlining would turn small assets into data: URLs; keep every asset a file.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    target: 'es2022',
    sourcemap: false,
  },
});
