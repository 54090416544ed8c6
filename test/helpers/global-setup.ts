// Runs once before the test files: bundles the console's control client and unpacks the npm-shipped Chromium (when it is
// the one chosen) before parallel files race to.
import { fileURLToPath } from 'node:url';
import { bundleConsole } from '../../scripts/bundle-console.js';
import { chromiumExecutable } from './chromium.js';

export default async function setup(): Promise<void> {
  // The console page loads it; `npm run build` writes it too, but tests run from src/ without a build.
  await bundleConsole(fileURLToPath(new URL('../../src', import.meta.url)));
  // @sparticuz/chromium writes its binary (and the libraries and fonts a slim machine lacks) straight to the temp dir and
  // trusts any file already there: two test files unpacking at once could launch a half-written one. Done here, every
  // file finds them complete. Without a usable browser the reason is said once here, in one line, and each browser
  // suite fails at once with the same line; the rest of the suite still runs.
  await chromiumExecutable().catch((error: Error) => console.error(`browser tests will fail: ${error.message}`));
}
