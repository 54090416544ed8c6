// One contract for both control clients: the in-process `control` and connectEmulator() over HTTP must behave alike.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Control } from '../../src/index.js';

export interface ClientUnderTest {
  url: string;
  apiKey: string;
  control: Control;
  close(): Promise<void>;
}

const CLOCK_START = '2026-03-01T00:00:00.000Z';
export const CONTRACT_OPTIONS = { seed: 7, timing: 'manual', clockStart: CLOCK_START, ffmpegPath: false } as const;
const request = { model_slug: 'still-sketch-v1', prompt: 'a lighthouse at dusk', max_credits: 10 };

/** The shared suite; `start` gives an emulator started with CONTRACT_OPTIONS and the client to test. */
export function controlClientContract(name: string, start: () => Promise<ClientUnderTest>) {
  describe(`the ${name} control client`, () => {
    let env: ClientUnderTest;
    let control: Control;

    beforeAll(async () => {
      env = await start();
      control = env.control;
    });
    afterEach(() => control.reset());
    afterAll(() => env.close());

    async function submit(body: object, key: string) {
      const res = await fetch(`${env.url}/v1/media/generations`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${env.apiKey}`, 'Content-Type': 'application/json', 'Idempotency-Key': key },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as { generation: { id: string } } };
    }

    it('reads the clock and moves it by a duration', async () => {
      expect((await control.now()).toISOString()).toBe(CLOCK_START);
      const moved = await control.advance('10m');
      expect(moved).toMatchObject({ now: '2026-03-01T00:10:00.000Z', frozen: true, transitions: 0 });
      expect(await control.clock()).toEqual({ now: '2026-03-01T00:10:00.000Z', frozen: true });
      expect((await control.unfreeze()).frozen).toBe(false);
      expect((await control.freeze()).frozen).toBe(true);
    });

    it('sets and tops up the seeded account by default, and writes funding entries', async () => {
      const [seeded] = await control.accounts();
      expect(await control.setBalance(50)).toEqual({ account_id: seeded.id, balance: 50 });
      expect(await control.topUp(-20)).toEqual({ account_id: seeded.id, balance: 30 });
      expect((await control.accounts())[0].balance).toBe(30);
      expect((await control.ledger({ account_id: seeded.id })).map((e) => e.type)).toContain('funding');
    });

    it('gives the seeded API key that startEmulator() returns, and it authenticates', async () => {
      expect(await control.apiKey()).toBe(env.apiKey);
      const res = await fetch(`${env.url}/v1/media/models`, {
        headers: { Authorization: `Bearer ${await control.apiKey()}` },
      });
      expect(res.status).toBe(200);
    });

    it('creates a scoped key that works, then revokes it', async () => {
      const key = await control.createKey({ name: 'contract', model_scope: 'still-sketch-v1' });
      expect(key).toMatchObject({ name: 'contract', model_scope: 'still-sketch-v1', revoked_at: null });
      expect((await control.keys()).map((k) => k.id)).toContain(key.id);
      expect((await control.revokeKey(key.id)).revoked_at).not.toBeNull();
    });

    it("sets a key's daily credit ceiling, which its next submission meets, and removes it", async () => {
      const key = await control.createKey({ name: 'ceiling' });
      const submitWith = async (idempotencyKey: string) =>
        fetch(`${env.url}/v1/media/generations`, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${key.secret}`,
            'Content-Type': 'application/json',
            'Idempotency-Key': idempotencyKey,
          },
          body: JSON.stringify(request),
        });
      const first = await submitWith('ceiling-0001');
      expect(first.status).toBe(202);
      const spent = ((await first.json()) as { generation: { charged_credits: number } }).generation.charged_credits;
      expect(await control.setKeyDailyLimit(key.id, spent)).toMatchObject({ id: key.id, daily_credit_limit: spent });
      const refused = await submitWith('ceiling-0002');
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('daily_credit_limit_exceeded');
      expect((await control.keys()).find((k) => k.id === key.id)?.daily_credit_limit).toBe(spent);
      expect((await control.setKeyDailyLimit(key.id, null)).daily_credit_limit).toBeNull();
      expect((await submitWith('ceiling-0003')).status).toBe(202);
      await expect(control.setKeyDailyLimit(9999, 5)).rejects.toMatchObject({ code: 'key_not_found' });
      await expect(control.setKeyDailyLimit(key.id, -1)).rejects.toMatchObject({
        code: 'invalid_control_request',
        message: expect.stringMatching(/^The daily limit is not valid: daily_credit_limit: /),
      });
    });

    it('sets a ceiling from a scenario step on a key an earlier step creates, and refuses one on no key unchanged', async () => {
      const loaded = await control.scenario.load({
        name: 'capped-key',
        steps: [
          { op: 'create_key', name: 'capped' },
          { op: 'set_daily_limit', id: 2, daily_credit_limit: 40 },
        ],
      });
      expect(loaded).toMatchObject({ steps: { total: 2, run: 2 } });
      expect((await control.keys()).find((k) => k.name === 'capped')).toMatchObject({ id: 2, daily_credit_limit: 40 });
      const missing = {
        name: 'no-such-key',
        steps: [
          { op: 'set_balance' as const, balance: 1 },
          { op: 'set_daily_limit' as const, id: 77, daily_credit_limit: null },
        ],
      };
      await expect(control.scenario.load(missing)).rejects.toMatchObject({
        code: 'key_not_found',
        message: expect.stringContaining('steps[1] (set_daily_limit): API key 77 does not exist'),
      });
      expect((await control.accounts())[0].balance).not.toBe(1);
    });

    it('changes the timing profile of one model and removes the override', async () => {
      expect((await control.setTiming({ by_model: { 'still-sketch-v1': 'instant' } })).by_model).toEqual({
        'still-sketch-v1': 'instant',
      });
      expect((await control.setTiming({ by_model: { 'still-sketch-v1': null } })).by_model).toEqual({});
      expect((await control.timing()).profile).toBe('manual');
    });

    it('serves a 503 fault rule once, then a retry with the same key is charged once', async () => {
      const rule = await control.faults.add({
        match: { method: 'POST', route: '/v1/media/generations' },
        times: 1,
        action: { type: 'status', status: 503, retry_after: '1s' },
      });
      expect((await control.faults.list()).map((f) => f.id)).toEqual([rule.id]);
      expect((await submit(request, 'contract-0001')).status).toBe(503);
      const accepted = await submit(request, 'contract-0001');
      expect(accepted.status).toBe(202);
      const done = await control.waitFor(accepted.body.generation.id, 'completed');
      expect(done).toMatchObject({ status: 'completed', billing_status: 'charged' });
      const charges = (await control.ledger({ generation_id: done.id })).filter((e) => e.type === 'charge');
      expect(charges).toHaveLength(1);
      expect(await control.journal({ path: '/v1/media/generations' })).toMatchObject([
        { status: 503, fault_id: rule.id },
        { status: 202 },
      ]);
    });

    it('disables, enables and removes fault rules', async () => {
      const a = await control.faults.add({ id: 'rule-a', action: { type: 'status', status: 500 } });
      await control.faults.add({ id: 'rule-b', action: { type: 'status', status: 502 } });
      expect((await control.faults.disable(a.id)).enabled).toBe(false);
      expect((await control.faults.enable(a.id)).enabled).toBe(true);
      expect((await control.faults.remove(a.id)).map((f) => f.id)).toEqual(['rule-b']);
      expect(await control.faults.clear()).toEqual([]);
    });

    it('moves the emulator clock in waitFor, transition by transition', async () => {
      const { body } = await submit(request, 'contract-0002');
      const running = await control.waitFor(body.generation.id, 'running');
      expect(running.status).toBe('running');
      expect((await control.now()).getTime()).toBeGreaterThan(Date.parse(CLOCK_START));
      expect((await control.waitFor(body.generation.id, 'final')).status).toBe('completed');
    });

    it('fails a generation with a refund, refuses a second refund, and says why waitFor cannot complete it', async () => {
      const { body } = await submit(request, 'contract-0003');
      const id = body.generation.id;
      const failed = await control.fail(id, { code: 'content_policy', refund: 'none' });
      expect(failed).toMatchObject({ status: 'failed', billing_status: 'charged', error: { code: 'content_policy' } });
      await expect(control.waitFor(id, 'completed')).rejects.toMatchObject({ code: 'unreachable_state' });
      expect((await control.refund(id)).refunded).toBe(4);
      await expect(control.refund(id)).rejects.toMatchObject({ code: 'already_refunded' });
      expect((await control.generation(id)).billing_status).toBe('refunded');
    });

    it('completes a pending generation at once and lists it', async () => {
      const { body } = await submit(request, 'contract-0004');
      expect((await control.complete(body.generation.id)).status).toBe('completed');
      expect((await control.generations({ status: 'completed' })).map((g) => g.id)).toEqual([body.generation.id]);
    });

    it('rejects an unknown generation or key with its error code', async () => {
      await expect(control.generation('gen_missing')).rejects.toMatchObject({ code: 'generation_not_found' });
      await expect(control.revokeKey(9999)).rejects.toMatchObject({ code: 'key_not_found' });
    });

    it('refuses a bad query or body naming what it is, and a scenario step naming the step, before it runs', async () => {
      await expect(control.generations({ limit: 0 })).rejects.toMatchObject({
        code: 'invalid_control_request',
        message: 'The generations query is not valid: limit: must be one whole number from 1 to 1000.',
      });
      const tooShort = 'Too small: expected string to have >=1 characters';
      const badKey = {
        code: 'invalid_control_request',
        message: `The new key is not valid: name: ${tooShort}.`,
        details: { problems: [{ field: 'name', message: tooShort }] },
      };
      await expect(control.createKey({ name: '' })).rejects.toMatchObject(badKey);
      // The step takes POST /_emulator/keys' members, so the scenario's own schema refuses it (as the document says).
      const scenario = { name: 'blank-key', steps: [{ op: 'create_key' as const, name: '' }] };
      await expect(control.scenario.load(scenario)).rejects.toMatchObject({
        code: 'invalid_scenario',
        message: `Scenario (body) is not valid: steps[0].name: ${tooShort}.`,
        details: { problems: [{ field: 'steps[0].name', message: tooShort }] },
      });
      expect(await control.keys()).toHaveLength(1);
    });

    it('loads a scenario by name, reports its progress and unloads it', async () => {
      expect(await control.scenario.available()).toContain('flaky-network');
      expect((await control.scenario.load('flaky-network')).name).toBe('flaky-network');
      expect((await control.scenario.progress())?.name).toBe('flaky-network');
      expect(await control.scenario.unload()).toBeNull();
      expect(await control.scenario.progress()).toBeNull();
    });

    it('loads an inline scenario object', async () => {
      const active = await control.scenario.load({
        name: 'inline',
        steps: [{ op: 'set_balance', balance: 9 }],
        faults: [],
      });
      expect(active).toMatchObject({ name: 'inline', steps: { total: 1, run: 1 } });
      expect((await control.accounts())[0].balance).toBe(9);
    });

    it('takes a name with a path separator or a .json ending as a file it reads, anything else as a shipped name', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'contract-scenario-'));
      try {
        const file = join(dir, 'broken.json');
        writeFileSync(file, JSON.stringify({ name: 'broken', steps: [{ op: 'no_such_step' }] }));
        await expect(control.scenario.load(file)).rejects.toMatchObject({
          code: 'invalid_scenario',
          message: expect.stringContaining(file),
        });
        await expect(control.scenario.load('Flaky-Network.JSON')).rejects.toMatchObject({
          code: 'scenario_not_found',
          message: expect.stringContaining("No scenario named 'Flaky-Network.JSON'"),
        });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('reads the journal by filter and clears it', async () => {
      await submit(request, 'contract-0005');
      expect(await control.journal({ method: 'POST', status: '2xx' })).toHaveLength(1);
      expect(await control.journal({ since: new Date(Date.parse(CLOCK_START) + 1000) })).toEqual([]);
      expect(await control.clearJournal()).toEqual({ ok: true });
      expect(await control.journal()).toEqual([]);
    });

    it('gives the console views: summary, catalogue, detail with its timeline, one journal entry', async () => {
      const { body } = await submit(request, 'contract-0006');
      const id = body.generation.id;
      const seen = await control.summary({ q: 'lighthouse' });
      expect(seen.generations).toMatchObject({ total: 1, counts: { pending: 1 } });
      expect(seen.generations.items[0].id).toBe(id);
      expect((await control.catalogue()).models.map((m) => m.slug)).toContain('still-sketch-v1');
      const [entry] = await control.journal({ method: 'POST' });
      expect((await control.journalEntry(entry.id)).status).toBe(202);
      await expect(control.journalEntry(99_999)).rejects.toMatchObject({ code: 'journal_entry_not_found' });
      const detail = await control.detail(id);
      expect(detail.timeline.map((t) => t.status)).toEqual(['pending']);
      expect(detail.request?.id).toBe(entry.id);
    });

    it("advances to the next transition, then expires a completed generation's links", async () => {
      const { body } = await submit(request, 'contract-0007');
      const id = body.generation.id;
      await expect(control.expireLinks(id)).rejects.toMatchObject({ code: 'generation_not_completed' });
      expect((await control.advanceToNext()).transitions).toBe(1);
      expect((await control.generation(id)).status).toBe('running');
      await control.waitFor(id, 'completed');
      const [before] = (await control.detail(id)).links;
      expect((await fetch(before.url)).status).toBe(200);
      const [fresh] = (await control.expireLinks(id)).links;
      expect((await fetch(before.url)).status).toBe(403);
      expect(fresh.state).toBe('ok');
      expect((await fetch(fresh.url)).status).toBe(200);
    });

    it('resets to the seeded state', async () => {
      await control.setBalance(1);
      await control.faults.add({ action: { type: 'status', status: 500 } });
      await control.advance('1h');
      await control.reset();
      expect((await control.accounts())[0].balance).toBe(1_000_000);
      expect(await control.faults.list()).toEqual([]);
      expect((await control.now()).toISOString()).toBe(CLOCK_START);
    });

    it('exports the state and imports it back', async () => {
      await control.setBalance(77);
      const state = await control.exportState();
      expect(state.format).toBe('media-gen-emulator-state');
      await control.reset();
      await control.importState(state);
      expect((await control.accounts())[0].balance).toBe(77);
    });
  });
}
