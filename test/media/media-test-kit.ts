// Shared helpers for the real-ffmpeg tests: catalogue models, jobs, ffprobe, frame colours, MP4 box order.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { catalogueFileSchema, type ModelEntry } from '../../src/domain/catalogue-schema.js';
import { mediaSpecFor } from '../../src/domain/media-spec.js';
import type { ReferenceImage, RenderJob } from '../../src/infra/renderer.js';
import { requireMediaTools } from '../helpers/media-tools.js';

// Every file importing this kit renders or probes real media: without the tools it fails here, at once, saying so.
export const TOOLS = requireMediaTools();

const run = promisify(execFile);

export const FPS = 24;
/** One frame, plus a hair for container rounding. */
export const FRAME_TOLERANCE = 1 / FPS + 1e-3;

export async function model(slug: string): Promise<ModelEntry> {
  const text = await readFile(new URL('../../fixtures/catalogue.json', import.meta.url), 'utf8');
  const found = catalogueFileSchema.parse(JSON.parse(text)).models.find((m) => m.slug === slug);
  if (!found) throw new Error(`model ${slug} is not in fixtures/catalogue.json`);
  return found;
}

/** Params with every group's default filled in, as the domain hands them to the renderer. */
export function resolvedParams(entry: ModelEntry, params: Record<string, string>): Record<string, string> {
  return { ...Object.fromEntries(entry.option_groups.map((g) => [g.name, g.default])), ...params };
}

export async function jobFor(
  slug: string,
  params: Record<string, string>,
  extra: Partial<RenderJob> = {},
): Promise<RenderJob> {
  const entry = await model(slug);
  const resolved = resolvedParams(entry, params);
  return {
    generationId: 'gen_test',
    identityLabel: 'gen_test',
    modelSlug: slug,
    kind: entry.kind,
    prompt: 'A lighthouse on a cliff at dusk',
    params: resolved,
    spec: mediaSpecFor(entry, resolved),
    index: 0,
    ...extra,
  };
}

export interface Probe {
  format: { duration: string };
  streams: Array<{
    codec_type: string;
    codec_name: string;
    width?: number;
    height?: number;
    pix_fmt?: string;
    duration?: string;
    nb_frames?: string;
  }>;
}

export async function ffprobe(path: string): Promise<Probe> {
  const { stdout } = await run(TOOLS.ffprobe, [
    '-v',
    'error',
    '-print_format',
    'json',
    '-show_format',
    '-show_streams',
    path,
  ]);
  return JSON.parse(stdout) as Probe;
}

/** Mean RGB of one frame (or a region of it), via ffmpeg's area scaling to a single pixel. */
export async function frameColour(
  path: string,
  frame: number,
  region?: { x: number; y: number; w: number; h: number },
): Promise<[number, number, number]> {
  const crop = region ? `crop=${region.w}:${region.h}:${region.x}:${region.y},` : '';
  const { stdout } = await run(
    TOOLS.ffmpeg,
    [
      '-v',
      'error',
      '-i',
      path,
      '-vf',
      `select=eq(n\\,${frame}),${crop}scale=1:1:flags=area`,
      '-frames:v',
      '1',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      '-',
    ],
    { encoding: 'buffer' },
  );
  return [stdout[0]!, stdout[1]!, stdout[2]!];
}

export function colourDistance(a: readonly number[], b: readonly number[]): number {
  return Math.max(...a.map((v, i) => Math.abs(v - b[i]!)));
}

/** A solid-colour image made by ffmpeg, at any size, as a reference input. */
export async function solidImage(
  rgb: [number, number, number],
  width: number,
  height: number,
): Promise<ReferenceImage> {
  const hex = rgb.map((v) => v.toString(16).padStart(2, '0')).join('');
  const { stdout } = await run(
    TOOLS.ffmpeg,
    [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      `color=c=0x${hex}:s=${width}x${height}`,
      '-frames:v',
      '1',
      '-c:v',
      'png',
      '-f',
      'image2pipe',
      '-',
    ],
    { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
  );
  return { bytes: stdout, format: 'png', width, height };
}

/** Top-level MP4 box types in file order (size 1 means a 64-bit size follows; 0 means "to the end"). */
export async function topLevelBoxes(path: string): Promise<string[]> {
  const data = await readFile(path);
  const boxes: string[] = [];
  let offset = 0;
  while (offset + 8 <= data.length) {
    let size = data.readUInt32BE(offset);
    boxes.push(data.toString('latin1', offset + 4, offset + 8));
    if (size === 1) size = Number(data.readBigUInt64BE(offset + 8));
    if (size === 0) break;
    if (size < 8) throw new Error(`bad box size ${size} at ${offset}`);
    offset += size;
  }
  return boxes;
}

export async function tempDir(prefix: string): Promise<{ path: string; remove: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), `media-test-${prefix}-`));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}
