// The emulator's example models produce valid files: PNG of the documented size, AAC of the exact length, GLB.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRenderer } from '../../src/infra/create-renderer.js';
import type { Renderer } from '../../src/infra/renderer.js';
import { ffprobe, jobFor, tempDir } from './media-test-kit.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const IMAGE_SIZES: Record<string, [number, number]> = {
  '1:1': [1024, 1024],
  '16:9': [1024, 576],
  '9:16': [576, 1024],
  '4:3': [1024, 768],
  '3:4': [768, 1024],
};

let renderer: Renderer;
let work: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  work = await tempDir('kinds');
  renderer = await createRenderer({ now: () => 0, workDir: work.path, maxParallel: 2, searchPath: process.env.PATH });
});

afterAll(async () => {
  await renderer?.close();
  await work?.remove();
});

describe.concurrent('image (still-sketch-v1)', () => {
  for (const [size, [width, height]] of Object.entries(IMAGE_SIZES)) {
    it(`writes a ${width}x${height} PNG for size=${size}`, async () => {
      const file = await renderer.render(await jobFor('still-sketch-v1', { size }));
      const png = await readFile(file.path);
      expect(png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
      expect(png.toString('latin1', 12, 16)).toBe('IHDR');
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([width, height]);
      expect(file.mimeType).toBe('image/png');
    });
  }

  it('makes each output of a count=2 request different', async () => {
    const [a, b] = await Promise.all(
      [0, 1].map(async (index) => renderer.render(await jobFor('still-sketch-v1', { count: '2' }, { index }))),
    );
    expect(await readFile(a!.path)).not.toEqual(await readFile(b!.path));
  });
});

describe.concurrent('music (tone-music-v1)', () => {
  for (const duration of ['5', '10', '15', '30']) {
    it(`writes ${duration} s of AAC in M4A`, async () => {
      const file = await renderer.render(await jobFor('tone-music-v1', { duration }));
      const probe = await ffprobe(file.path);
      expect(probe.streams).toHaveLength(1);
      expect(probe.streams[0]).toMatchObject({ codec_type: 'audio', codec_name: 'aac' });
      expect(Math.abs(Number(probe.format.duration) - Number(duration))).toBeLessThanOrEqual(0.1);
      expect(file.mimeType).toBe('audio/mp4');
    });
  }
});

describe.concurrent('3d (mesh-blocks-v1)', () => {
  for (const detail of ['low', 'high']) {
    it(`writes a valid GLB for detail=${detail}`, async () => {
      const file = await renderer.render(await jobFor('mesh-blocks-v1', { detail }));
      const glb = await readFile(file.path);
      expect(glb.toString('latin1', 0, 4)).toBe('glTF');
      expect(glb.readUInt32LE(4)).toBe(2);
      expect(glb.readUInt32LE(8)).toBe(glb.length);
      const jsonLength = glb.readUInt32LE(12);
      expect(glb.toString('latin1', 16, 20)).toBe('JSON');
      expect(jsonLength % 4).toBe(0);
      const binStart = 20 + jsonLength;
      const binLength = glb.readUInt32LE(binStart);
      expect(glb.toString('latin1', binStart + 4, binStart + 8)).toBe('BIN\0');
      expect(binLength % 4).toBe(0);
      expect(binStart + 8 + binLength).toBe(glb.length);
      const gltf = JSON.parse(glb.toString('utf8', 20, binStart)) as {
        asset: { version: string };
        buffers: Array<{ byteLength: number }>;
        accessors: Array<{ count: number }>;
      };
      expect(gltf.asset.version).toBe('2.0');
      expect(gltf.buffers[0]!.byteLength).toBe(binLength);
      const blocks = detail === 'high' ? 14 : 1;
      expect(gltf.accessors[0]!.count).toBe(24 * blocks);
      expect(gltf.accessors[2]!.count).toBe(36 * blocks);
      expect(file.mimeType).toBe('model/gltf-binary');
    });
  }
});

describe.concurrent('formats the schema allows beyond the catalogue', () => {
  it('writes WebP stills and MP3 music when a model asks for them', async () => {
    const still = await jobFor('still-sketch-v1', { size: '1:1' });
    const webp = await renderer.render({ ...still, spec: { ...still.spec, format: 'webp', mimeType: 'image/webp' } });
    const bytes = await readFile(webp.path);
    expect([bytes.toString('latin1', 0, 4), bytes.toString('latin1', 8, 12)]).toEqual(['RIFF', 'WEBP']);
    const music = await jobFor('tone-music-v1', { duration: '5' });
    const mp3 = await renderer.render({ ...music, spec: { ...music.spec, format: 'mp3', mimeType: 'audio/mpeg' } });
    const probe = await ffprobe(mp3.path);
    expect(probe.streams[0]!.codec_name).toBe('mp3');
    expect(Math.abs(Number(probe.format.duration) - 5)).toBeLessThanOrEqual(0.1);
  });
});
