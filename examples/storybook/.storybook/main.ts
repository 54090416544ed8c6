// Storybook for the example: HTML stories on Vite, msw's service worker at the root, ES2022 (the stories' top-level await).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { StorybookConfig } from '@storybook/html-vite';

const mswWorker = () => ({
  name: 'msw-worker',
  generateBundle(this: { emitFile(file: object): void }) {
    const source = readFileSync(createRequire(import.meta.url).resolve('msw/mockServiceWorker.js'), 'utf8');
    this.emitFile({ type: 'asset', fileName: 'mockServiceWorker.js', source });
  },
});

const config: StorybookConfig = {
  stories: ['../*.stories.ts'],
  framework: { name: '@storybook/html-vite', options: {} },
  core: { disableTelemetry: true },
  viteFinal: (vite) => ({
    ...vite,
    plugins: [...(vite.plugins ?? []), mswWorker()],
    build: { ...vite.build, target: 'es2022' },
    optimizeDeps: { ...vite.optimizeDeps, esbuildOptions: { target: 'es2022' } },
  }),
};
export default config;
