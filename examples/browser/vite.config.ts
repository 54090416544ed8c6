// Vite for the example: the page's build, with msw's service worker served at the site's root.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { defineConfig, type Plugin } from 'vite';

/** msw's mockServiceWorker.js at /, in the dev server and in the build (what `npx msw init public/` would copy). */
function mswWorker(): Plugin {
  const source = () => readFileSync(createRequire(import.meta.url).resolve('msw/mockServiceWorker.js'), 'utf8');
  return {
    name: 'msw-worker',
    configureServer(server) {
      server.middlewares.use('/mockServiceWorker.js', (_req, res) => {
        res.setHeader('Content-Type', 'text/javascript');
        res.end(source());
      });
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'mockServiceWorker.js', source: source() });
    },
  };
}

export default defineConfig({
  root: import.meta.dirname,
  plugins: [mswWorker()],
  build: { target: 'es2022', outDir: 'dist', emptyOutDir: true },
});
