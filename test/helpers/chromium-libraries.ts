// What a Chromium binary needs from the machine (its shared libraries, from ldd), what the npm-shipped build brings of
// its own for a slim image (NSS, NSPR, expat; fonts), and the one line that names what is still missing.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Debian's (and Ubuntu's) package for each library Chromium links or loads at start, by file name. */
const DEBIAN_PACKAGES: Record<string, string> = {
  'libnss3.so': 'libnss3',
  'libnssutil3.so': 'libnss3',
  'libsmime3.so': 'libnss3',
  'libssl3.so': 'libnss3',
  'libnspr4.so': 'libnspr4',
  'libplc4.so': 'libnspr4',
  'libplds4.so': 'libnspr4',
  'libexpat.so.1': 'libexpat1',
  'libasound.so.2': 'libasound2',
  'libgbm.so.1': 'libgbm1',
  'libdrm.so.2': 'libdrm2',
  'libxkbcommon.so.0': 'libxkbcommon0',
  'libatk-1.0.so.0': 'libatk1.0-0',
  'libatk-bridge-2.0.so.0': 'libatk-bridge2.0-0',
  'libatspi.so.0': 'libatspi2.0-0',
  'libcups.so.2': 'libcups2',
  'libdbus-1.so.3': 'libdbus-1-3',
  'libX11.so.6': 'libx11-6',
  'libxcb.so.1': 'libxcb1',
  'libXcomposite.so.1': 'libxcomposite1',
  'libXdamage.so.1': 'libxdamage1',
  'libXext.so.6': 'libxext6',
  'libXfixes.so.3': 'libxfixes3',
  'libXrandr.so.2': 'libxrandr2',
  'libpango-1.0.so.0': 'libpango-1.0-0',
  'libcairo.so.2': 'libcairo2',
  'libglib-2.0.so.0': 'libglib2.0-0',
  'libgobject-2.0.so.0': 'libglib2.0-0',
  'libgio-2.0.so.0': 'libglib2.0-0',
  'libfontconfig.so.1': 'libfontconfig1',
  'libfreetype.so.6': 'libfreetype6',
  'libgtk-3.so.0': 'libgtk-3-0',
};

/**
 * The shared libraries `binary` needs that the dynamic loader cannot find (ldd's "=> not found"), with `libraryPath`
 * searched first. Empty where ldd cannot tell (no ldd, a static binary): the launch then says what went wrong.
 */
export function missingLibraries(binary: string, libraryPath?: string): string[] {
  const env = libraryPath
    ? { ...process.env, LD_LIBRARY_PATH: [libraryPath, process.env.LD_LIBRARY_PATH].filter(Boolean).join(':') }
    : process.env;
  const ldd = spawnSync('ldd', [binary], { encoding: 'utf8', env, timeout: 15_000 });
  if (ldd.error || typeof ldd.stdout !== 'string') return [];
  return [...ldd.stdout.matchAll(/^\s*(\S+) => not found\s*$/gm)].map((m) => m[1]!);
}

/** One line: what is missing, the apt line that installs it, and the way around it. */
export function missingLibrariesLine(binary: string, missing: readonly string[]): string {
  const packages = [...new Set(missing.map((name) => DEBIAN_PACKAGES[name]).filter(Boolean))];
  const unknown = missing.filter((name) => !DEBIAN_PACKAGES[name]);
  const install = packages.length
    ? ` Install them: apt-get install -y --no-install-recommends ${packages.join(' ')}`
    : '';
  const rest = unknown.length
    ? `${packages.length ? ', and' : ' Install'} the package that provides ${unknown.join(', ')}`
    : '';
  return `Chromium (${binary}) cannot start: this machine lacks ${missing.join(', ')}.${install}${rest} (or set CHROMIUM_PATH to a browser that runs here).`;
}

/** The folder of @sparticuz/chromium's compressed parts (its exports hide it). */
function shippedBin(): string {
  return join(dirname(createRequire(import.meta.url).resolve('@sparticuz/chromium')), '..', 'bin');
}

/**
 * The libraries the npm build ships for Amazon Linux (NSS, NSPR, expat: all it links beyond glibc), unpacked to the temp
 * dir once. A slim Debian or Ubuntu image lacks exactly these; glibc's compatibility lets them load there.
 */
export async function shippedLibraries(): Promise<string> {
  const { inflate } = await import('@sparticuz/chromium');
  return join(await inflate(join(shippedBin(), 'al2023.tar.br')), 'lib');
}

/** The fonts the npm build ships (Open Sans), unpacked to the temp dir once, and the monospace font in fixtures/. */
export async function shippedFontDirs(): Promise<string[]> {
  const { inflate } = await import('@sparticuz/chromium');
  const fixtures = fileURLToPath(new URL('../../fixtures/fonts', import.meta.url));
  return [await inflate(join(shippedBin(), 'fonts.tar.br')), fixtures];
}

/** Whether the machine has a fontconfig setup of its own; a slim image has none, and Chromium then draws no text. */
export const systemHasFonts = () => existsSync('/etc/fonts/fonts.conf');

/** A fontconfig file naming only `dirs`, caching under `cacheDir`, for a Chromium on a machine with no fonts. */
export function fontConfig(dirs: readonly string[], cacheDir: string): string {
  const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return [
    '<?xml version="1.0"?>',
    '<!DOCTYPE fontconfig SYSTEM "fonts.dtd">',
    '<fontconfig>',
    ...dirs.map((dir) => `  <dir>${xml(dir)}</dir>`),
    `  <cachedir>${xml(cacheDir)}</cachedir>`,
    '</fontconfig>',
    '',
  ].join('\n');
}
