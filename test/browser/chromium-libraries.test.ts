// The browser tests' Chromium on a machine that lacks its shared libraries: the npm build's own fill the gap, and what
// is still missing is named in one line with the apt line, before any launch (test/helpers/chromium-libraries.ts).
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  missingLibraries,
  missingLibrariesLine,
  shippedFontDirs,
  shippedLibraries,
} from '../helpers/chromium-libraries.js';
import { launchChromium } from '../helpers/chromium.js';

const scratch = mkdtempSync(join(tmpdir(), 'chromium-libraries-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("Chromium's shared libraries", () => {
  it('finds none missing for a binary that runs here (this Node)', () => {
    expect(missingLibraries(process.execPath)).toEqual([]);
  });

  it('names a library the loader cannot find, and finds none missing once the npm build lends its own', async () => {
    // A real ELF file from the npm build (NSPR's libplds4, which links libnspr4.so), its link renamed to one no machine has.
    const lent = await shippedLibraries();
    const patched = join(scratch, 'libplds4.so');
    copyFileSync(join(lent, 'libplds4.so'), patched);
    const bytes = readFileSync(patched);
    const at = bytes.indexOf('libnspr4.so\0');
    expect(at).toBeGreaterThan(0);
    bytes.write('libnspr9.so', at);
    writeFileSync(patched, bytes);
    expect(missingLibraries(patched)).toEqual(['libnspr9.so']);
    expect(missingLibraries(join(lent, 'libplds4.so'), lent)).toEqual([]);
    const { default: Shipped } = await import('@sparticuz/chromium');
    expect(missingLibraries(await Shipped.executablePath(), lent)).toEqual([]);
  });

  it('says in one line what is missing and the apt line that installs it', () => {
    const line = missingLibrariesLine('/tmp/chromium', [
      'libnspr4.so',
      'libnss3.so',
      'libnssutil3.so',
      'libexpat.so.1',
    ]);
    expect(line).toBe(
      'Chromium (/tmp/chromium) cannot start: this machine lacks libnspr4.so, libnss3.so, libnssutil3.so, libexpat.so.1. ' +
        'Install them: apt-get install -y --no-install-recommends libnspr4 libnss3 libexpat1 ' +
        '(or set CHROMIUM_PATH to a browser that runs here).',
    );
    expect(missingLibrariesLine('/c', ['libgbm.so.1', 'libnspr9.so'])).toContain(
      'apt-get install -y --no-install-recommends libgbm1, and the package that provides libnspr9.so (',
    );
    expect(missingLibrariesLine('/c', ['libnspr9.so'])).toContain('Install the package that provides libnspr9.so (');
  });

  it('unpacks the npm build fonts beside the monospace one in fixtures/, for a machine with none', async () => {
    const [shipped, fixtures] = await shippedFontDirs();
    expect(readFileSync(join(shipped!, 'fonts', 'Open_Sans', 'OpenSans-Regular.ttf')).length).toBeGreaterThan(100_000);
    expect(readFileSync(join(fixtures!, 'DejaVuSansMono.ttf')).length).toBeGreaterThan(100_000);
  });
});

describe('Chromium with only the shipped fonts', () => {
  it('draws text, sans-serif and DejaVu Sans Mono (fixed width), as on a machine with no fonts of its own', async () => {
    const browser = await launchChromium({ fontDirs: await shippedFontDirs() });
    try {
      const page = await browser.context.newPage();
      await page.setContent(
        `<span id="sans" style="font: 20px sans-serif">hello</span>` +
          `<span id="narrow" style="font: 20px 'DejaVu Sans Mono'">iiii</span>` +
          `<span id="wide" style="font: 20px 'DejaVu Sans Mono'">MMMM</span>`,
      );
      const width = (id: string) => page.locator(`#${id}`).evaluate((e) => e.getBoundingClientRect().width);
      const [sans, narrow, wide] = [await width('sans'), await width('narrow'), await width('wide')];
      expect(sans).toBeGreaterThan(20);
      expect(narrow).toBeGreaterThan(20);
      expect(narrow).toBeCloseTo(wide, 1);
    } finally {
      await browser.close();
    }
  });
});
