// Generation-level actions: fail at pending or running after a delay with each refund policy, stall, slow, delay, expired and missing outputs.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { CHEAP_PRICE, controlled, idem, submission } from '../helpers/controlled-emulator.js';

async function accepted(
  api: ReturnType<typeof controlled>['api'],
  n: number | string,
  overrides: Record<string, unknown> = {},
) {
  const res = await api.submit(submission(overrides), idem(n));
  expect(res.status).toBe(202);
  return res.body.generation.id as string;
}

describe('fail action', () => {
  it('fails at pending after a delay, refunding in full by default', async () => {
    const { control, api } = controlled();
    await control.faults.add({ action: { type: 'fail', at: 'pending', delay: '500ms', code: 'content_policy' } });
    const id = await accepted(api, 1);
    await control.advance('499ms');
    expect((await control.generation(id)).status).toBe('pending');
    await control.advance('1ms');
    const g = (await api.get(`/v1/media/generations/${id}`)).body.generation;
    expect(g).toMatchObject({
      status: 'failed',
      charged_credits: CHEAP_PRICE,
      refunded_credits: CHEAP_PRICE,
      net_credits: 0,
      billing_status: 'refunded',
    });
    expect(g.error.code).toBe('content_policy');
    expect(g.error.message).toContain('The charge was refunded.');
  });

  it('fails at running after a delay with the charge standing (refund none)', async () => {
    const { control, api } = controlled();
    await control.faults.add({
      action: { type: 'fail', at: 'running', delay: '2s', code: 'internal_error', refund: 'none' },
    });
    const id = await accepted(api, 2);
    await control.advance('1s');
    expect((await control.generation(id)).status).toBe('running');
    await control.advance('2s');
    expect(await control.generation(id)).toMatchObject({
      status: 'failed',
      error: { code: 'internal_error' },
      refunded_credits: 0,
      billing_status: 'charged',
    });
  });

  it('rewords the failure message after a later refund so it never contradicts billing_status', async () => {
    const { control, api } = controlled();
    await control.faults.add({ times: 1, action: { type: 'fail', code: 'timeout', refund: 'none' } });
    const id = await accepted(api, 'stale-1');
    await control.advance('5s');
    expect((await control.generation(id)).error?.message).toMatch(/The charge stands\.$/);
    await control.refund(id, 1);
    const partly = await control.generation(id);
    expect(partly.billing_status).toBe('partially_refunded');
    expect(partly.error?.message).toMatch(new RegExp(`1 of the ${CHEAP_PRICE} credits charged were refunded\\.$`));
    await control.refund(id);
    const refunded = await control.generation(id);
    expect(refunded.billing_status).toBe('refunded');
    expect(refunded.error?.message).toMatch(/The charge was refunded\.$/);
    expect(refunded.error?.message).not.toContain('The charge stands');
  });

  it('refunds part of the charge (partially_refunded), and a partial refund of everything is a full one', async () => {
    const { control, api } = controlled();
    await control.faults.add({ times: 1, action: { type: 'fail', code: 'timeout', refund: { partial: 1 } } });
    await control.faults.add({ times: 1, action: { type: 'fail', code: 'timeout', refund: { partial: 999 } } });
    const partial = await accepted(api, 3);
    const whole = await accepted(api, 4);
    await control.advance('5s');
    expect(await control.generation(partial)).toMatchObject({
      status: 'failed',
      refunded_credits: 1,
      net_credits: CHEAP_PRICE - 1,
      billing_status: 'partially_refunded',
    });
    expect((await control.generation(partial)).error?.message).toContain(
      `1 of the ${CHEAP_PRICE} credits charged were refunded.`,
    );
    expect(await control.generation(whole)).toMatchObject({
      refunded_credits: CHEAP_PRICE,
      billing_status: 'refunded',
    });
  });

  it('counts a generation rule only when a generation is accepted, not for a refused request', async () => {
    const { control, api } = controlled();
    const rule = await control.faults.add({ times: 1, action: { type: 'fail' } });
    expect((await api.submit(submission({ model_slug: 'no-such-model' }), idem(5))).status).toBe(404);
    expect((await control.faults.list())[0]).toMatchObject({ id: rule.id, fired: 0, matched: 0 });
    const id = await accepted(api, 6);
    expect((await control.journal({ status: 202 }))[0].fault_id).toBe(rule.id);
    await control.advance('5s');
    expect((await control.generation(id)).status).toBe('failed');
  });

  it('a replayed submission does not fire generation rules again', async () => {
    const { control, api } = controlled();
    await control.faults.add({ action: { type: 'stall' } });
    await accepted(api, 7);
    expect((await api.submit(submission(), idem(7))).body.replayed).toBe(true);
    expect((await control.faults.list())[0].fired).toBe(1);
  });
});

describe('timing actions', () => {
  it('stall: running forever, until the control plane completes it', async () => {
    const { control, api } = controlled();
    await control.faults.add({ action: { type: 'stall' } });
    const id = await accepted(api, 10);
    await control.advance('7d');
    expect((await control.generation(id)).status).toBe('running');
    await expect(control.waitFor(id, 'completed')).rejects.toMatchObject({ code: 'unreachable_state' });
    expect((await control.complete(id)).status).toBe('completed');
  });

  it('slow: every timer a factor longer', async () => {
    const { control, api } = controlled();
    await control.faults.add({ match: { prompt: 'slow' }, action: { type: 'slow', factor: 10 } });
    const slow = await accepted(api, 11, { prompt: 'slow one' });
    const normal = await accepted(api, 12);
    await control.advance('4s');
    expect((await control.generation(normal)).status).toBe('completed');
    expect((await control.generation(slow)).status).toBe('pending');
    await control.advance('31s');
    expect((await control.generation(slow)).status).toBe('completed');
  });

  it('delay: pending and running times, or a total', async () => {
    const { control, api } = controlled();
    await control.faults.add({ times: 1, action: { type: 'delay', pending: '1m', running: '10s' } });
    await control.faults.add({ times: 1, action: { type: 'delay', total: '30s' } });
    const split = await accepted(api, 13);
    const total = await accepted(api, 14);
    await control.advance('59s');
    expect((await control.generation(split)).status).toBe('pending');
    expect((await control.generation(total)).status).toBe('completed');
    await control.advance('11s');
    expect((await control.generation(split)).status).toBe('completed');
  });
});

describe('output actions', () => {
  it('expired_urls: completed, but the output URL answers 403 url_expired', async () => {
    const { control, api, emulator } = controlled();
    await control.faults.add({ action: { type: 'expired_urls' } });
    const id = await accepted(api, 20);
    const done = await control.waitFor(id, 'completed');
    const url = new URL(done.outputs[0].url, 'http://x');
    expect(new Date(done.outputs[0].expires_at).getTime()).toBeLessThan((await control.now()).getTime());
    const file = await request(emulator.app).get(url.pathname + url.search);
    expect(file.status).toBe(403);
    expect(file.body.error.code).toBe('url_expired');
  });

  it('missing_outputs: completed, but the output URL answers 404 output_not_found', async () => {
    const { control, api, emulator } = controlled();
    await control.faults.add({ action: { type: 'missing_outputs' } });
    const id = await accepted(api, 21);
    const done = await control.waitFor(id, 'completed');
    const url = new URL(done.outputs[0].url, 'http://x');
    const file = await request(emulator.app).get(url.pathname + url.search);
    expect(file.status).toBe(404);
    expect(file.body.error.code).toBe('output_not_found');
  });

  it('expired_urls once: the plane keeps the outcome, and a public read spends it without changing the core', async () => {
    const { control, api } = controlled();
    await control.faults.add({ action: { type: 'expired_urls', once: true } });
    const id = await accepted(api, 22);
    await control.waitFor(id, 'completed');
    const before = await control.exportState();
    expect(before.control.links).toEqual([{ generationId: id, outputUrls: 'expired-once' }]);
    expect(before.domain.generations.find((g) => g.id === id)?.plan).not.toHaveProperty('outputUrls');
    const expiresOf = async () => {
      const url = (await api.get(`/v1/media/generations/${id}`)).body.generation.outputs[0].url as string;
      return Number(new URL(url, 'http://x').searchParams.get('expires')) * 1000;
    };
    expect(await expiresOf()).toBeLessThan((await control.now()).getTime());
    const after = await control.exportState();
    expect(after.domain).toEqual(before.domain);
    expect(after.control.links).toEqual([]);
    expect(await expiresOf()).toBeGreaterThan((await control.now()).getTime());
  });
});
