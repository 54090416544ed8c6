// The console's sandbox switcher in Chromium: choosing a sandbox shows and drives that world only.
import { afterEach, expect, it } from 'vitest';
import { type ConsoleSession, openConsole, submit } from './console-kit.js';

let session: ConsoleSession | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

it('switches between the default world and a sandbox, each with its own generations and reset', async () => {
  session = await openConsole({ ffmpegPath: false });
  const { page, running } = session;
  const sandbox = await running.control.createSandbox({ label: 'worker 1' });
  const MINE = 'a sandbox-only kite';
  const THEIRS = 'a default-world fox';
  await submit({ ...running, apiKey: sandbox.apiKey }, MINE, 1);
  const theirs = await submit(running, THEIRS, 2);
  await page.locator('#generations-list').getByText(THEIRS).waitFor();

  await page.locator('#sandbox').focus();
  await page.locator('#sandbox option', { hasText: 'worker 1' }).waitFor({ state: 'attached' });
  await Promise.all([page.waitForEvent('load'), page.locator('#sandbox').selectOption(sandbox.id)]);
  await page.locator('#generations-list').getByText(MINE).waitFor();
  expect(await page.locator('#generations-list').getByText(THEIRS).count()).toBe(0);
  expect(await page.locator('#sandbox').inputValue()).toBe(sandbox.id);

  // Its reset is the sandbox's: the default world keeps its generation.
  page.once('dialog', (dialog) => dialog.accept());
  await page.locator('#reset').click();
  await page.locator('#generations-list').getByText(MINE).waitFor({ state: 'detached' });
  expect((await running.control.generations()).map((g) => g.id)).toEqual([theirs.id]);

  await Promise.all([page.waitForEvent('load'), page.locator('#sandbox').selectOption('')]);
  await page.locator('#generations-list').getByText(THEIRS).waitFor();
  expect(session.problems).toEqual([]);
});
