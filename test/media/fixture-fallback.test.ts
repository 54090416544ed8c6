// Binary resolution order, and the fixture fallback when ffmpeg is disabled or FFMPEG_PATH points nowhere.
import { mkdir, readFile, stat, symlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRenderer } from '../../src/infra/create-renderer.js';
import { resolveFfmpeg } from '../../src/infra/ffmpeg/resolve-ffmpeg.js';
import type { Renderer } from '../../src/infra/renderer.js';
import { ffprobe, jobFor, TOOLS, tempDir, topLevelBoxes } from './media-test-kit.js';

const fixture = (name: string): URL => new URL(`../../fixtures/${name}`, import.meta.url);

let work: Awaited<ReturnType<typeof tempDir>>;
let renderers: Renderer[];

beforeEach(async () => {
  work = await tempDir('fallback');
  renderers = [];
});

afterEach(async () => {
  await Promise.all(renderers.map((r) => r.close()));
  await work.remove();
});

async function start(ffmpegPath: string | false | undefined, log: string[], searchPath?: string): Promise<Renderer> {
  const renderer = await createRenderer({
    ffmpegPath,
    searchPath: searchPath ?? process.env.PATH,
    now: () => 0,
    workDir: work.path,
    log: (l) => log.push(l),
  });
  renderers.push(renderer);
  return renderer;
}

/** A folder holding `ffmpeg` (a link to the tests' ffmpeg), to stand for PATH without depending on the machine's. */
async function pathWithFfmpeg(): Promise<string> {
  const dir = join(work.path, 'bin');
  await mkdir(dir, { recursive: true });
  await symlink(TOOLS.ffmpeg, join(dir, 'ffmpeg'));
  return dir;
}

const NOT_INSTALLED = () => Promise.reject(new Error("Cannot find package 'ffmpeg-static'"));

describe('ffmpeg resolution', () => {
  it('uses FFMPEG_PATH when given', async () => {
    const found = await resolveFfmpeg({ explicitPath: TOOLS.ffmpeg });
    expect(found).toMatchObject({ found: true, source: 'FFMPEG_PATH', path: TOOLS.ffmpeg });
    // A bare command name is looked up on PATH.
    const dir = await pathWithFfmpeg();
    const byName = await resolveFfmpeg({ explicitPath: 'ffmpeg', pathEnv: `/no/such/dir:${dir}` });
    expect(byName).toMatchObject({ found: true, source: 'FFMPEG_PATH', path: join(dir, 'ffmpeg') });
  });

  it('prefers PATH, then ffmpeg-static (only when its binary exists), then the npm-shipped static build', async () => {
    const dir = await pathWithFfmpeg();
    const present = { importStatic: async () => ({ default: TOOLS.ffmpeg }) };
    expect(await resolveFfmpeg({ ...present, pathEnv: dir })).toMatchObject({ found: true, source: 'PATH' });
    expect(await resolveFfmpeg({ ...present, pathEnv: '/no/such/dir' })).toMatchObject({
      found: true,
      source: 'ffmpeg-static',
      path: TOOLS.ffmpeg,
    });
    const missing = await resolveFfmpeg({
      importStatic: async () => ({ default: '/no/such/ffmpeg' }),
      pathEnv: '/no/such/dir',
    });
    // The real @ffmpeg-installer/ffmpeg dependency: `npm install` alone gives a working ffmpeg.
    expect(missing).toMatchObject({ found: true, source: '@ffmpeg-installer/ffmpeg' });
    expect(missing.found && missing.path).toMatch(/@ffmpeg-installer[\\/][^\\/]+[\\/]ffmpeg(\.exe)?$/);
  });

  it('says why when there is no ffmpeg anywhere', async () => {
    const none = await resolveFfmpeg({
      importStatic: NOT_INSTALLED,
      importInstaller: () => Promise.reject('Unsupported platform/architecture: plan9-mips'),
      pathEnv: '/no/such/dir',
    });
    expect(none.found).toBe(false);
    expect(!none.found && none.reason).toMatch(
      /no ffmpeg on PATH; ffmpeg-static not installed; @ffmpeg-installer\/ffmpeg has no binary here: Unsupported platform/,
    );
  });

  it('logs exactly one line naming the binary and where it came from', async () => {
    const log: string[] = [];
    const renderer = await start(undefined, log, await pathWithFfmpeg());
    expect(renderer.info).toMatchObject({ mode: 'ffmpeg', source: 'PATH' });
    expect(log).toHaveLength(1);
    expect(log[0]).toMatch(/^renderer: ffmpeg \S+ at \S*ffmpeg \(from PATH\)/);
  });

  it('renders with the npm-shipped 2018 build and says once at start that it has no xfade', async () => {
    const shipped = (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path;
    const log: string[] = [];
    const renderer = await start(shipped, log);
    expect(renderer.info).toMatchObject({ mode: 'ffmpeg', binary: shipped });
    expect(log).toHaveLength(1);
    expect(log[0]).toContain('no xfade filter (older than ffmpeg 4.3): Model B cross-fades use fade and overlay');
    const video = await renderer.render(await jobFor('motion-lite-v1', { duration: '4', audio: 'on' }));
    expect((await ffprobe(video.path)).streams.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264']);
  });
});

describe('fixture fallback', () => {
  for (const [why, path] of [
    ['ffmpeg is disabled', false],
    ['FFMPEG_PATH does not exist', '/no/such/ffmpeg'],
  ] as const) {
    it(`serves fixture files when ${why}, and says so once`, async () => {
      const log: string[] = [];
      const renderer = await start(path, log);
      expect(renderer.info.mode).toBe('fixture');
      expect(renderer.info.warning).toBeTruthy();
      if (path) expect(renderer.info.warning).toContain(path);
      expect(log).toHaveLength(1);
      // Turned off on purpose is said plainly; a missing ffmpeg is a warning with what to do.
      if (path) expect(log[0]).toMatch(/WARNING no usable ffmpeg .*Install ffmpeg or set FFMPEG_PATH/);
      else
        expect(log[0]).toBe(
          'renderer: ffmpeg is disabled by configuration (ffmpegPath: false); outputs are copies of fixture files.',
        );

      const video = await renderer.render(await jobFor('motion-lite-v1', { duration: '9', audio: 'on' }));
      expect(await readFile(video.path)).toEqual(await readFile(fixture('fallback.mp4')));
      expect(video.mimeType).toBe('video/mp4');
      const png = await renderer.render(await jobFor('still-sketch-v1', {}));
      expect(await readFile(png.path)).toEqual(await readFile(fixture('fallback.png')));
      const music = await renderer.render(await jobFor('tone-music-v1', {}));
      expect(await readFile(music.path)).toEqual(await readFile(fixture('fallback.m4a')));
      // GLB needs no ffmpeg: still generated for real.
      const glb = await renderer.render(await jobFor('mesh-blocks-v1', {}));
      expect((await readFile(glb.path)).toString('latin1', 0, 4)).toBe('glTF');
      // A repeat is a cache hit in fixture mode too.
      expect((await renderer.render(await jobFor('still-sketch-v1', {}))).cacheHit).toBe(true);
    });
  }

  it('ships small, browser-playable fallback files', async () => {
    const probe = await ffprobe(new URL(fixture('fallback.mp4')).pathname);
    expect(probe.streams[0]).toMatchObject({ codec_name: 'h264', pix_fmt: 'yuv420p' });
    const boxes = await topLevelBoxes(new URL(fixture('fallback.mp4')).pathname);
    expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));
    for (const name of ['fallback.mp4', 'fallback.png', 'fallback.m4a']) {
      expect((await stat(fixture(name))).size).toBeLessThan(100 * 1024);
    }
  });
});
