import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

// The console is served by Sesame itself at /console; in `vite dev` the API calls go to a local server.
export default defineConfig({
  root: webRoot,
  base: '/console/',
  // theme/ is served by Sesame as it is (the OIDC pages link it too), so nothing is copied from a public folder.
  publicDir: false,
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // Every asset is a file: the Content-Security-Policy allows no inline data for scripts or styles.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
  server: {
    fs: { allow: [repoRoot] },
    proxy: {
      '/api': 'http://127.0.0.1:3000',
      '/.well-known': 'http://127.0.0.1:3000',
      '/console/theme': 'http://127.0.0.1:3000',
    },
  },
});
