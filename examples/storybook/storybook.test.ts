// The Storybook example as built (`storybook build`), in real Chromium: each story loads its own scenario in the
// emulator that msw-storybook-addon serves, and shows what the API answered in that state.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchBrowser } from '../playwright/chromium.js';

const STATIC = join(import.meta.dirname, 'storybook-static');
const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.mp4': 'video/mp4',
  '.svg': 'image/svg+xml',
};

let server: Server;
let browser: Browser;
let origin: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = normalize(new URL(req.url ?? '/', 'http://x').pathname).replace(/^(\.\.[/\\])+/, '');
    try {
      const body = readFileSync(join(STATIC, path === '/' ? 'index.html' : path));
      res.writeHead(200, { 'Content-Type': TYPES[extname(path)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

it.each([
  ['generator--insufficient-credits', 'Refused 402: insufficient_credits (wallet 10)'],
  ['generator--content-policy-failure', /^Failed: content_policy, (\d+) of \1 credits refunded$/],
  ['generator--expired-link', 'Download refused 403: url_expired'],
])('story %s shows %s', async (id, expected) => {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${origin}/iframe.html?id=${id}&viewMode=story`);
  const status = page.locator('[role=status]');
  await status.waitFor({ timeout: 30_000 });
  const text = (await status.textContent()) ?? '';
  if (typeof expected === 'string') expect(text).toBe(expected);
  else expect(text).toMatch(expected);
  expect(errors).toEqual([]);
  await page.close();
});
