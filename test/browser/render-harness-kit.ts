// Opens the browser-renderer test page in real Chromium and calls its harness; writes what it renders to disk for ffprobe.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { ReferenceImage, RenderJob } from '../../src/infra/renderer.js';
import { type Chromium, launchChromium } from '../helpers/chromium.js';
import { type RenderPageServer, serveRenderPage } from '../helpers/render-page-server.js';
import type { HarnessGlobals, RenderHarness, WireFile, WireImage, WireJob } from './render-page-types.js';

export interface RenderPage {
  page: Page;
  /** Runs one harness method in the page; arguments and answers cross as JSON. */
  call<K extends keyof RenderHarness>(
    method: K,
    ...args: Parameters<RenderHarness[K]>
  ): Promise<Awaited<ReturnType<RenderHarness[K]>>>;
  close(): Promise<void>;
}

/** `initScript` runs before the page's own code: a test takes WebCodecs away there, as a browser without it would be. */
export async function openRenderPage(initScript?: string): Promise<RenderPage> {
  const server: RenderPageServer = await serveRenderPage();
  let browser: Chromium | undefined;
  try {
    browser = await launchChromium();
    const page = await browser.context.newPage();
    if (initScript) await page.addInitScript(initScript);
    await page.goto(server.url);
    await page.waitForSelector('body[data-ready=yes]', { state: 'attached' });
    const opened = browser;
    return {
      page,
      call: (method, ...args) =>
        page.evaluate(
          ({ method, args }) =>
            ((globalThis as unknown as HarnessGlobals).harness[method] as (...a: unknown[]) => unknown)(...args),
          { method, args },
        ) as never,
      async close() {
        await opened.close();
        await server.close();
      },
    };
  } catch (error) {
    await browser?.close();
    await server.close();
    throw error;
  }
}

const wireImage = (image: ReferenceImage | undefined): WireImage | undefined =>
  image && {
    base64: Buffer.from(image.bytes!).toString('base64'),
    format: image.format,
    width: image.width,
    height: image.height,
  };

export const toWire = (job: RenderJob): WireJob => ({
  ...job,
  firstFrame: wireImage(job.firstFrame),
  lastFrame: wireImage(job.lastFrame),
});

export const bytesOf = (file: WireFile): Buffer => Buffer.from(file.base64, 'base64');

/** The page's bytes as a file in `dir`, for ffprobe and ffmpeg. */
export async function saved(dir: string, name: string, file: WireFile): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, bytesOf(file));
  return path;
}
