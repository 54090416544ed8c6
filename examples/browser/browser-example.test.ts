// The Vite example as built (`vite build`), in real Chromium: generate a clip with no server, watch it play for the
// requested length, and find the wallet unchanged after a reload (persist: true).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchBrowser } from '../playwright/chromium.js';

const DIST = join(import.meta.dirname, 'dist');
const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.wasm': 'application/wasm',
  '.mp4': 'video/mp4',
  '.png': 'image/png',
  '.m4a': 'audio/mp4',
};

let server: Server;
let browser: Browser;
let origin: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = normalize(new URL(req.url ?? '/', 'http://x').pathname).replace(/^(\.\.[/\\])+/, '');
    try {
      const body = readFileSync(join(DIST, path === '/' ? 'index.html' : path));
      res.writeHead(200, { 'Content-Type': TYPES[extname(path)] ?? 'text/html' }).end(body);
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

async function walletOf(page: Page): Promise<string> {
  await page.waitForFunction(() => document.getElementById('wallet')?.textContent?.startsWith('Wallet:'));
  return (await page.textContent('#wallet')) ?? '';
}

it('generates a 6 s clip that plays for 6 s, and keeps the wallet across a reload', async () => {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${origin}/`);
  expect(await walletOf(page)).toBe('Wallet: 1000000 credits');
  await page.fill('#seconds', '6');
  await page.click('#generate');
  await page.waitForFunction(() => document.getElementById('status')?.textContent?.startsWith('Completed'), null, {
    timeout: 30_000,
  });
  expect(await page.textContent('#status')).toBe('Completed: 6.0 s video');
  const spent = await walletOf(page);
  expect(spent).not.toBe('Wallet: 1000000 credits');
  await page.reload();
  expect(await walletOf(page)).toBe(spent);
  expect(errors).toEqual([]);
});
