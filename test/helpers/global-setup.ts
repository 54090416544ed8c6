// Runs once before the test files: unpacks the npm-shipped Chromium (when it is the one chosen) before parallel files race to.
import { chromiumExecutable } from './chromium.js';

export default async function setup(): Promise<void> {
  // @sparticuz/chromium writes its binary (and the libraries and fonts a slim machine lacks) straight to the temp dir and
  // trusts any file already there: two test files unpacking at once could launch a half-written one. Done here, every
  // file finds them complete. Without a usable browser the reason is said once here, in one line, and each browser
  // suite fails at once with the same line; the rest of the suite still runs.
  await chromiumExecutable().catch((error: Error) => console.error(`browser tests will fail: ${error.message}`));
}
