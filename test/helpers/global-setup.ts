// Runs once before the test files: unpacks the npm-shipped Chromium (when it is the one chosen) before parallel files race to.
import { chromiumExecutable } from './chromium.js';

export default async function setup(): Promise<void> {
  // @sparticuz/chromium writes its binary straight to the temp dir and trusts any file already there: two test files
  // unpacking at once could launch a half-written one. Done here, every file finds it complete.
  // Without a browser the browser tests fail one by one with the reason; the rest of the suite still runs.
  await chromiumExecutable().catch(() => undefined);
}
