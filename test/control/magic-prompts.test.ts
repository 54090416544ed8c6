// Magic prompt markers: each one scripts the outcome, bad ones are a 422 before any charge, and they can be turned off.
import { describe, expect, it } from 'vitest';
import { markerActions } from '../../src/emulation/faults/magic-prompts.js';
import { CHEAP_PRICE, controlled, idem, submission } from '../helpers/controlled-emulator.js';

async function run(prompt: string, options = {}) {
  const { control, api } = controlled(options);
  const res = await api.submit(submission({ prompt }), idem(prompt.length));
  expect(res.status).toBe(202);
  return { control, api, id: res.body.generation.id as string };
}

describe('magic prompt markers', () => {
  it('[emulator:fail=content_policy] fails while pending with a full refund', async () => {
    const { control, id } = await run('a cat [emulator:fail=content_policy]');
    const g = await control.waitFor(id, 'final');
    expect(g).toMatchObject({
      status: 'failed',
      error: { code: 'content_policy' },
      billing_status: 'refunded',
      net_credits: 0,
    });
    expect(g.prompt).toBe('a cat [emulator:fail=content_policy]');
  });

  it('[emulator:fail=internal_error,refund=none] fails while running and keeps the charge', async () => {
    const { control, id } = await run('[emulator:fail=internal_error,refund=none] a dog');
    await control.advance('1s');
    expect((await control.generation(id)).status).toBe('failed');
    expect(await control.generation(id)).toMatchObject({
      error: { code: 'internal_error' },
      billing_status: 'charged',
      net_credits: CHEAP_PRICE,
    });
  });

  it('refund=partial:N, at= and after= shape the failure', async () => {
    const { control, id } = await run('x [emulator:fail=timeout,at=running,after=10s,refund=partial:3]');
    await control.advance('1s');
    await control.advance('9999ms');
    expect((await control.generation(id)).status).toBe('running');
    await control.advance('1ms');
    expect(await control.generation(id)).toMatchObject({
      status: 'failed',
      error: { code: 'timeout' },
      refunded_credits: 3,
      billing_status: 'partially_refunded',
    });
  });

  it('[emulator:delay=30s] completes 30 s after submission', async () => {
    const { control, id } = await run('x [emulator:delay=30s]');
    await control.advance('29s');
    expect((await control.generation(id)).status).not.toBe('completed');
    await control.advance('1s');
    expect((await control.generation(id)).status).toBe('completed');
  });

  it('[emulator:stall] stays running; [emulator:slow=3] triples the timers', async () => {
    const stalled = await run('x [emulator:stall]');
    await stalled.control.advance('1d');
    expect((await stalled.control.generation(stalled.id)).status).toBe('running');
    const slow = await run('x [emulator:slow=3]');
    await slow.control.advance('2999ms');
    expect((await slow.control.generation(slow.id)).status).toBe('pending');
    await slow.control.advance('1ms');
    expect((await slow.control.generation(slow.id)).status).toBe('running');
  });

  it('[emulator:expired-urls] and [emulator:missing-outputs] script the outputs', async () => {
    const expired = await run('x [emulator:expired-urls]');
    const done = await expired.control.waitFor(expired.id, 'completed');
    expect(new Date(done.outputs[0].expires_at).getTime()).toBeLessThan((await expired.control.now()).getTime());
    const missing = await run('x [emulator:missing-outputs]');
    await missing.control.waitFor(missing.id, 'completed');
    const url = new URL((await missing.control.generation(missing.id)).outputs[0].url, 'http://x');
    expect((await missing.api.get(url.pathname + url.search)).status).toBe(404);
  });

  it('several markers combine, later keys winning', async () => {
    expect(
      markerActions('[emulator:stall] and [emulator:expired-urls,delay=5s]')
        .map((a) => a.type)
        .sort(),
    ).toEqual(['delay', 'expired_urls', 'stall']);
    expect(markerActions('[emulator:fail=timeout] [emulator:fail=content_policy]')).toMatchObject([
      { type: 'fail', code: 'content_policy', at: 'pending' },
    ]);
  });

  it('a marker overrides a matching fault rule', async () => {
    const { control, api } = controlled();
    await control.faults.add({ action: { type: 'stall' } });
    const res = await api.submit(submission({ prompt: 'x [emulator:fail=content_policy]' }), idem('override'));
    await control.advance('1s');
    expect((await control.generation(res.body.generation.id)).status).toBe('failed');
  });

  it.each([
    ['[emulator:fial=content_policy]', 'Unknown emulator marker "fial"'],
    ['[emulator:fail=Content-Policy]', 'must be lower_snake_case'],
    ['[emulator:refund=none]', 'only works together with fail=CODE'],
    ['[emulator:fail=x1,refund=some]', 'refund=some is not full, none or partial:N'],
    ['[emulator:delay=soon]', 'must be a duration'],
  ])('refuses %s with a 422 naming the problem, before any charge', async (prompt, message) => {
    const { control, api } = controlled();
    const res = await api.submit(submission({ prompt }), idem('bad-marker'));
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ type: 'emulator_marker_invalid', loc: ['body', 'prompt'] });
    expect(res.body.detail[0].msg).toContain(message);
    expect(await control.generations()).toEqual([]);
    expect((await control.accounts())[0].balance).toBe(1_000_000);
  });

  it('uses up no generation id on a refused marker, so seeded ids stay in sequence', async () => {
    const { api } = controlled();
    expect((await api.submit(submission({ prompt: '[emulator:fial]' }), idem('refused-first'))).status).toBe(422);
    const accepted = await api.submit(submission(), idem('accepted-next'));
    expect(accepted.status).toBe(202);
    expect(accepted.body.generation.id).toBe('gen_000001');
  });

  it('magicPrompts: false treats markers as plain text', async () => {
    const { control, id } = await run('[emulator:fail=content_policy] [emulator:fial]', { magicPrompts: false });
    expect((await control.waitFor(id, 'final')).status).toBe('completed');
  });
});
