// control.waitFor(id, state): moves the emulator clock from one scheduled transition to the next; never sleeps on wall-clock time.
import { describe, expect, it } from 'vitest';
import { controlled, idem, submission } from '../helpers/controlled-emulator.js';

async function submitted(options = {}, overrides = {}) {
  const env = controlled(options);
  const res = await env.api.submit(submission(overrides), idem(1));
  return { ...env, id: res.body.generation.id as string };
}

describe('waitFor', () => {
  it('advances exactly to each due transition (manual timing, frozen clock)', async () => {
    const { control, id } = await submitted({ clockStart: '2026-01-01T00:00:00Z' });
    expect((await control.waitFor(id, 'running')).status).toBe('running');
    expect((await control.now()).toISOString()).toBe('2026-01-01T00:00:01.000Z');
    const done = await control.waitFor(id, 'completed');
    expect(done.status).toBe('completed');
    expect(done.outputs).toHaveLength(1);
    expect((await control.now()).toISOString()).toBe('2026-01-01T00:00:03.500Z');
    expect((await control.waitFor(id, 'final')).status).toBe('completed');
  });

  it('reaches a realistic-profile completion at once on a running clock, without sleeping', async () => {
    const { control, id } = await submitted(
      { timing: 'realistic', clock: 'real' },
      { model_slug: 'mesh-blocks-v1', max_credits: 1000 },
    );
    const started = performance.now();
    expect((await control.waitFor(id, 'completed')).status).toBe('completed');
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('throws unreachable_state when the next transition is due after 9999-12-31, where the clock stops', async () => {
    const { control, id } = await submitted({ clockStart: '9999-12-31T23:59:59.000Z' });
    await expect(control.waitFor(id, 'completed')).rejects.toMatchObject({
      code: 'unreachable_state',
      message: expect.stringContaining('due after 9999-12-31T23:59:59.999Z, where the emulator clock stops'),
    });
    expect((await control.now()).toISOString()).toBe('9999-12-31T23:59:59.000Z');
  });

  it('answers nothing_scheduled to advanceToNext when the next transition is due after 9999-12-31', async () => {
    const { control } = await submitted({ clockStart: '9999-12-31T23:59:59.000Z' });
    await expect(control.advanceToNext()).rejects.toMatchObject({
      code: 'nothing_scheduled',
      message: expect.stringContaining('due after 9999-12-31T23:59:59.999Z, where the emulator clock stops'),
    });
    expect((await control.now()).toISOString()).toBe('9999-12-31T23:59:59.000Z');
  });

  it('throws unreachable_state when the generation ends otherwise, naming its error code', async () => {
    const { control, id } = await submitted({}, { prompt: 'x [emulator:fail=content_policy]' });
    await expect(control.waitFor(id, 'completed')).rejects.toMatchObject({
      code: 'unreachable_state',
      message: expect.stringContaining('it ended failed with error.code content_policy'),
    });
  });

  it('throws when the state is already behind, or nothing is scheduled (a stall)', async () => {
    const { control, id } = await submitted({}, { prompt: 'x [emulator:stall]' });
    await control.waitFor(id, 'running');
    await expect(control.waitFor(id, 'pending')).rejects.toMatchObject({
      message: expect.stringContaining('it is already running'),
    });
    await expect(control.waitFor(id, 'completed')).rejects.toMatchObject({
      message: expect.stringContaining('nothing is scheduled'),
    });
  });

  it('gives up beyond `within` of emulator time (default 24h)', async () => {
    const { control, id } = await submitted({}, { prompt: 'x [emulator:pending=2d]' });
    await expect(control.waitFor(id, 'running')).rejects.toMatchObject({
      message: expect.stringContaining('more than 24h'),
    });
    expect((await control.waitFor(id, 'running', { within: '3d' })).status).toBe('running');
  });

  it('refuses an unknown generation', async () => {
    const { control } = controlled();
    await expect(control.waitFor('gen_nope', 'completed')).rejects.toMatchObject({ code: 'generation_not_found' });
  });
});
