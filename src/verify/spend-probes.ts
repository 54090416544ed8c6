// The probes that charge, within --allow-spend: one cheapest generation, its replays, its polling and its outputs.
import { isDeepStrictEqual } from 'node:util';
import { sameShape, skeleton } from './compare.js';
import type { ProbeAnswer, ProbeRequest, Send } from './http-probe.js';
import type { Reference } from './reference.js';
import type { CheckResult } from './report-types.js';
import { checkResult, type Session } from './session.js';

export interface Cheapest {
  model: string;
  params: Record<string, string>;
  credits: number;
}

export interface SpendSettings {
  runId: string;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
  maxWaitSeconds: number;
}

const SPEND_CHECKS = ['final-state', 'poll-after', 'reused-key', 'replay', 'output-shape', 'url-lifetime'];
type Envelope = { generation?: Generation; poll_after_seconds?: unknown; replayed?: unknown };
type Generation = Record<string, unknown> & { id?: string; status?: string; outputs?: Array<Record<string, unknown>> };

export async function spendProbes(
  s: Session,
  ref: Reference,
  cheapest: Cheapest | undefined,
  why: string,
  settings: SpendSettings,
) {
  if (cheapest === undefined || !s.canSpend(cheapest.credits)) {
    for (const id of SPEND_CHECKS) s.skip(id, 'one cheapest generation', why);
    return;
  }
  const key = `verify-${settings.runId}-spend`;
  const body = {
    model_slug: cheapest.model,
    prompt: 'verify probe: one cheapest generation',
    params: cheapest.params,
    max_credits: cheapest.credits,
  };
  const submit = (json: unknown): ProbeRequest => ({
    method: 'POST',
    path: '/v1/media/generations',
    headers: { 'idempotency-key': key },
    json,
  });
  const other = submit({ ...body, prompt: `${body.prompt} (another body)`, max_credits: 1 });

  const liveFirst = await s.spend(submit(body), cheapest.credits);
  // Over its own ceiling of 1 credit, the other body cannot charge unless the price itself is 1 or less.
  const otherCeiling = cheapest.credits > 1 ? 0 : 1;
  const liveOther = s.canSpend(otherCeiling) ? await s.spend(other, otherCeiling) : undefined;
  const replay = s.canSpend(cheapest.credits);
  const liveReplay = replay ? await s.spend(submit(body), cheapest.credits) : undefined;
  const liveFinal = await pollToEnd(s.live, liveFirst, settings);

  const refFirst = await ref.send(submit(body));
  const refOther = liveOther ? await ref.send(other) : undefined;
  const refReplay = replay ? await ref.send(submit(body)) : undefined;
  await ref.finish();
  const refFinal = await read(ref.send, refFirst);

  s.record(
    compareValues(
      'final-state',
      'the generation at its end',
      finalState(liveFinal),
      finalState(refFinal),
      durationNote(liveFinal),
    ),
  );
  s.record(compareValues('poll-after', 'poll_after_seconds of the 202', pollAfter(liveFirst), pollAfter(refFirst)));
  if (liveOther && refOther)
    s.record(checkResult('reused-key', 'the same Idempotency-Key with another body', 'error', liveOther, refOther));
  else s.skip('reused-key', 'the same Idempotency-Key with another body', 'needs 1 credit more of --allow-spend');
  if (liveReplay && refReplay)
    s.record(
      compareValues(
        'replay',
        'the same key and body again',
        replayed(liveFirst, liveReplay),
        replayed(refFirst, refReplay),
      ),
    );
  else
    s.skip(
      'replay',
      'the same key and body again',
      'needs --allow-spend of twice the cheapest price (a service that does not replay charges again)',
    );
  const liveOut = outputs(liveFinal)[0];
  const refOut = outputs(refFinal)[0];
  if (liveOut === undefined) {
    s.skip('output-shape', 'the first output', 'the generation has no outputs');
    s.skip('url-lifetime', 'signed URL lifetime', 'the generation has no outputs');
    return;
  }
  const shapes = [skeleton(liveOut), skeleton(refOut ?? {})];
  s.record({
    id: 'output-shape',
    label: 'the first output',
    status: sameShape(shapes[0], shapes[1]) ? 'match' : 'differs',
    live: shapes[0],
    emulator: shapes[1],
  });
  const lifetimes = [lifetime(liveOut, liveFinal), refOut && lifetime(refOut, refFinal)];
  if (lifetimes[0] === undefined)
    s.skip(
      'url-lifetime',
      'signed URL lifetime',
      'the output shows no expiry (`expires_at` or an `expires` query parameter)',
    );
  else {
    const near =
      lifetimes[1] !== undefined && Math.abs(lifetimes[0] - lifetimes[1]) <= Math.max(60, lifetimes[1] * 0.05);
    s.record({
      id: 'url-lifetime',
      label: 'signed URL lifetime, seconds',
      status: near ? 'match' : 'differs',
      live: lifetimes[0],
      emulator: lifetimes[1],
    });
  }
}

async function pollToEnd(send: Send, first: ProbeAnswer, settings: SpendSettings): Promise<ProbeAnswer> {
  const deadline = settings.now() + settings.maxWaitSeconds * 1000;
  const every = Number((first.body as Envelope | null)?.poll_after_seconds ?? 5);
  let answer = first;
  while (settings.now() < deadline) {
    const status = generationOf(answer)?.status;
    if (answer !== first && (status === 'completed' || status === 'failed')) return answer;
    await settings.sleep(Math.max(1, Number.isFinite(every) ? every : 5) * 1000);
    const next = await read(send, first);
    if (next.status !== 200) return next;
    answer = next;
  }
  return answer;
}

async function read(send: Send, accepted: ProbeAnswer): Promise<ProbeAnswer> {
  const id = generationOf(accepted)?.id;
  if (typeof id !== 'string') return accepted;
  return send({ method: 'GET', path: `/v1/media/generations/${encodeURIComponent(id)}` });
}

const generationOf = (a: ProbeAnswer) => (a.body as Envelope | null)?.generation;
const outputs = (a: ProbeAnswer) => (Array.isArray(generationOf(a)?.outputs) ? generationOf(a)!.outputs! : []);
const pollAfter = (a: ProbeAnswer) => ({
  status: a.status,
  poll_after_seconds: (a.body as Envelope | null)?.poll_after_seconds ?? null,
});

function finalState(a: ProbeAnswer) {
  const g = generationOf(a);
  return g === undefined
    ? { status: a.status, body: a.body }
    : { status: g.status, billing_status: g.billing_status, outputs: outputs(a).length };
}

function replayed(first: ProbeAnswer, again: ProbeAnswer) {
  const body = again.body as Envelope | null;
  return {
    status: again.status,
    replayed: body?.replayed ?? null,
    same_generation: generationOf(first)?.id === generationOf(again)?.id,
  };
}

function durationNote(a: ProbeAnswer): string | undefined {
  const g = generationOf(a);
  const took = (Date.parse(String(g?.completed_at)) - Date.parse(String(g?.created_at))) / 1000;
  return Number.isFinite(took) ? `created to completed in ${took} s on the service` : undefined;
}

/** Seconds from the answer's own Date to the output's expiry: `expires_at`, else an `expires` query parameter. */
function lifetime(output: Record<string, unknown>, answer: ProbeAnswer): number | undefined {
  let expires = typeof output.expires_at === 'string' ? Date.parse(output.expires_at) : Number.NaN;
  if (!Number.isFinite(expires) && typeof output.url === 'string') {
    const param = URL.canParse(output.url) ? new URL(output.url).searchParams.get('expires') : null;
    expires = param === null ? Number.NaN : Number(param) * 1000;
  }
  if (!Number.isFinite(expires) || answer.dateMs === undefined) return undefined;
  return Math.round((expires - answer.dateMs) / 1000);
}

function compareValues(id: string, label: string, live: unknown, emulator: unknown, note?: string): CheckResult {
  return {
    id,
    label,
    status: isDeepStrictEqual(live, emulator) ? 'match' : 'differs',
    live,
    emulator,
    ...(note ? { note } : {}),
  };
}
