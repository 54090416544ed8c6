// The browser renderer's sounds against ffmpeg's: the music melody sample for sample, the video tone's beep each second.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { melodySamples, toneSamples } from '../../../../src/infra/browser-renderer/tones.js';
import { buildMusicPlan } from '../../../../src/infra/ffmpeg/music-plan.js';
import type { RenderJob } from '../../../../src/infra/renderer.js';
import { ffmpegTool } from '../../../helpers/media-tools.js';

const run = promisify(execFile);
const SAMPLE_RATE = 44_100;

/** The aevalsrc graph the Node renderer builds for this output, run by ffmpeg to raw 32-bit float samples. */
async function ffmpegMelody(index: number, seconds: number): Promise<Float32Array> {
  const job = {
    index,
    spec: { durationSeconds: seconds, format: 'm4a' },
    modelSlug: 'm',
    identityLabel: 'i',
    prompt: '',
  };
  const plan = buildMusicPlan(job as RenderJob, { tmpDir: '', outPath: '', font: undefined, caps: {} as never });
  if (plan.type !== 'ffmpeg') throw new Error('music is an ffmpeg plan');
  const graph = plan.args[plan.args.indexOf('-filter_complex') + 1]!;
  const { stdout } = await run(
    ffmpegTool().path,
    ['-v', 'error', '-filter_complex', graph, '-map', '[a]', '-f', 'f32le', '-'],
    { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
  );
  return new Float32Array(stdout.buffer, stdout.byteOffset, stdout.byteLength / 4);
}

describe('browser renderer tones', () => {
  it.each([0, 1, 3])('plays the same melody as the ffmpeg renderer (output %i)', async (index) => {
    const expected = await ffmpegMelody(index, 3);
    const actual = melodySamples(index, SAMPLE_RATE, 3);
    expect(actual.length).toBe(expected.length);
    let worst = 0;
    for (let i = 0; i < actual.length; i += 1) worst = Math.max(worst, Math.abs(actual[i]! - expected[i]!));
    expect(worst).toBeLessThan(1e-4);
  });

  it('beeps at twice the pitch for the first 1/25 of each second, and is a plain tone between', () => {
    const rate = 48_000;
    const samples = toneSamples(440, rate, 2);
    const plain = (i: number): number => 0.125 * Math.sin((2 * Math.PI * 440 * i) / rate);
    const deviation = (from: number, to: number): number =>
      Math.max(...Array.from({ length: to - from }, (_, k) => Math.abs(samples[from + k]! - plain(from + k))));
    expect(samples.length).toBe(2 * rate);
    expect(deviation(0, rate / 25)).toBeGreaterThan(0.2);
    expect(deviation(rate / 25, rate)).toBeLessThan(1e-6);
    expect(deviation(rate, rate + rate / 25)).toBeGreaterThan(0.2);
  });
});
