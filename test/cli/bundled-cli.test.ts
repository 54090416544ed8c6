// The CLI as `npm run build` bundles it (entry, chunks loaded on demand): each lazy part works.
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleCli } from '../../scripts/bundle-cli.js';
import { type TranspiledPackage, REPO_ROOT, transpileDist } from '../../scripts/transpile-dist.js';
import { MODEL_A } from '../helpers/emulator.js';
import { multipart, png } from '../helpers/images.js';

let dist: TranspiledPackage;
let child: ChildProcess;
let url: string;
/** Everything the CLI printed. */
let out = '';
const auth = { Authorization: 'Bearer sk-media-local-emulator-key' };

beforeAll(async () => {
  // Bundled into a transpiled package root, as the benchmark does: dist/cli/ beside dist/ and links to fixtures/, src/.
  dist = transpileDist();
  await bundleCli(join(REPO_ROOT, 'src'), join(dist.root, 'dist'));
  child = spawn(process.execPath, [dist.cli, '--port', '0', '--timing', 'manual'], {
    cwd: dist.root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const found = /listening on (http:\/\/\S+)/.exec(out);
      if (found && out.includes('curl -H')) resolve(found[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the bundled CLI exited with ${code} before listening:\n${out}`)));
  });
});

afterAll(() => {
  child?.kill('SIGKILL');
  dist?.remove();
});

describe('the bundled CLI', () => {
  it('is an entry module plus chunks beside it, with no source maps', () => {
    const files = readdirSync(join(dist.root, 'dist', 'cli'));
    expect(files).toContain('main.js');
    expect(files.filter((f) => /^chunk-\w+\.js$/.test(f)).length).toBeGreaterThan(1);
    expect(files.filter((f) => f.endsWith('.map'))).toEqual([]);
  });

  it('decodes a JSON body', async () => {
    const res = await fetch(`${url}/v1/media/estimate`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ model_slug: MODEL_A, prompt: 'a lighthouse at dusk' }),
    });
    expect(res.status).toBe(200);
    expect(Number.isInteger(((await res.json()) as { credits: number }).credits)).toBe(true);
  });

  it('accepts an upload and refuses an oversized one (the multipart parser is a chunk loaded on the first upload)', async () => {
    const ok = multipart({ model_slug: MODEL_A }, { data: png(64, 64) });
    const accepted = await fetch(`${url}/v1/media/uploads`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': ok.contentType },
      body: ok.body,
    });
    expect(accepted.status, await accepted.clone().text()).toBe(201);
    const big = multipart({ model_slug: MODEL_A }, { data: Buffer.alloc(10 * 1024 * 1024 + 1) });
    const refused = await fetch(`${url}/v1/media/uploads`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': big.contentType },
      body: big.body,
    });
    expect(refused.status).toBe(413);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('upload_too_large');
  });

  it('serves /openapi.json (built by a chunk loaded on the first request)', async () => {
    const res = await fetch(`${url}/openapi.json`);
    expect(res.status).toBe(200);
    const document = (await res.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(document.openapi).toMatch(/^3\./);
    expect(Object.keys(document.paths)).toContain('/v1/media/generations');
  });

  it('serves the console page and its scripts from src/console', async () => {
    const page = await fetch(`${url}/_emulator/console`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('console.js');
    expect((await fetch(`${url}/_emulator/console/console.js`)).status).toBe(200);
  });

  it('renders a completed generation and serves its file', async () => {
    const submitted = await fetch(`${url}/v1/media/generations`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json', 'Idempotency-Key': 'bundled-cli-1' },
      body: JSON.stringify({ model_slug: MODEL_A, prompt: 'a lighthouse at dusk', max_credits: 1000 }),
    });
    expect(submitted.status, await submitted.clone().text()).toBe(202);
    const { generation } = (await submitted.json()) as { generation: { id: string } };
    const completed = await fetch(`${url}/_emulator/generations/${generation.id}/complete`, { method: 'POST' });
    expect(completed.status).toBe(200);
    const done = (await completed.json()) as { generation: { outputs: { url: string }[] } };
    const file = await fetch(done.generation.outputs[0]!.url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('video/mp4');
    expect((await file.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    // The shipped font, found from the chunk's rewritten import.meta.url (the generation completed, so it has logged).
    expect(out, 'this check needs ffmpeg with drawtext on PATH (apt-get install ffmpeg)').toContain(
      `font ${join(dist.root, 'fixtures', 'fonts')}`,
    );
  });
});
