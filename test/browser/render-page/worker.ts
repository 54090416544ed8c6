// The browser renderer in a dedicated worker: one job in, its bytes out (the module touches no document or window).
import { createBrowserRenderer } from '../../../src/infra/browser-renderer/browser-renderer.js';
import type { WireJob } from '../render-page-types.js';

interface WorkerScope {
  onmessage: ((event: MessageEvent<WireJob>) => void) | null;
  postMessage(message: unknown): void;
}

const scope = globalThis as unknown as WorkerScope;
scope.onmessage = async ({ data: job }) => {
  try {
    const renderer = await createBrowserRenderer({ now: () => 0 });
    const file = await renderer.render({ ...job, firstFrame: undefined, lastFrame: undefined });
    scope.postMessage({ mode: renderer.info.mode, mimeType: file.mimeType, data: file.data });
    await renderer.close();
  } catch (error) {
    scope.postMessage({ error: String(error) });
  }
};
