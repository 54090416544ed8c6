// verifyAgainst: probes a live deployment, asks an in-process emulator the same questions, and returns the report.
import { randomBytes } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { CatalogueFile } from '../domain/catalogue-schema.js';
import type { CalibrationFile } from './calibration-schema.js';
import { catalogueChecksFrom, parseLiveModels } from './catalogue-checks.js';
import { catalogueChecks, ceilingSubmission, freeChecks } from './free-probes.js';
import { createSender } from './http-probe.js';
import { buildReport } from './build-report.js';
import { priceProbes } from './price-probes.js';
import { startReference } from './reference.js';
import type { VerifyReport } from './report-types.js';
import { Session } from './session.js';
import { spendProbes } from './spend-probes.js';

export interface VerifyOptions {
  /** Where the API lives, e.g. https://staging.example.com (a trailing /v1/media is accepted). */
  baseUrl: string;
  apiKey: string;
  /** A second key limited to one model, to probe the out-of-scope answer. */
  scopedApiKey?: string;
  /** Credits the probes may charge at most; default 0 (free probes only). */
  allowSpend?: number;
  /** Price every combination of options, and send the 16 MiB body; default false. */
  full?: boolean;
  /** Requests a second to the service; default 2. */
  rps?: number;
  /** Compare with an emulator that loads this calibration (the one your tests run), not the bare emulator. */
  calibration?: string | CalibrationFile;
  /** Compare with an emulator that uses this catalogue. */
  catalogue?: string | CatalogueFile;
  /** How long to poll a charged generation before giving up; default 900. */
  maxWaitSeconds?: number;
  /** Injected waiting and time, for tests that drive the service's clock; default real timers. */
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /** Progress lines (never the key). */
  log?: (line: string) => void;
}

/** The service could not be probed at all: unreachable, or it refused the key. */
export class VerifyError extends Error {}

export async function verifyAgainst(options: VerifyOptions): Promise<VerifyReport> {
  const settings = checkOptions(options);
  const { sleep, now, log } = settings;
  const startedAt = new Date().toISOString();
  const notes: string[] = [];
  const live = createSender(
    { baseUrl: options.baseUrl, apiKey: options.apiKey, scopedApiKey: options.scopedApiKey },
    {
      rps: settings.rps,
      sleep,
      now,
      onRateLimited: (after) => notes.push(`the service answered 429 (Retry-After: ${after ?? 'none'})`),
    },
  );
  // The emulator first: a bad --calibration or --catalogue fails before the service sees a single request.
  const reference = await startReference({ calibration: options.calibration, catalogue: options.catalogue });
  try {
    const first = await live({ method: 'GET', path: '/v1/media/models' });
    if (first.failure !== undefined)
      throw new VerifyError(`cannot reach ${serviceOf(options.baseUrl)}: ${first.failure}`);
    if (first.status === 401 || first.status === 403)
      throw new VerifyError(`the service refused the API key (HTTP ${first.status}); check --api-key`);
    const s = new Session(live, settings.allowSpend);
    const runId = randomBytes(6).toString('hex');
    log('catalogue');
    const [all, ...kinds] = catalogueChecks();
    const liveCatalogue = await s.probe(all);
    for (const spec of kinds) await s.probe(spec);
    const liveModels = parseLiveModels(liveCatalogue.body);
    const slugs = new Set((liveModels ?? []).map((m) => m.slug));
    const models = [...(liveModels ?? []), ...reference.models.filter((m) => !slugs.has(m.slug))];
    const probeModel = models.find((m) => !m.emulator_example)?.slug ?? models[0].slug;

    log('prices');
    const prices = await priceProbes(live, models, settings.full, log);
    const balance = prices.balance ?? 1_000_000;
    const defaultPrice = prices.priceOf(probeModel, {});

    log('free probes');
    for (const spec of freeChecks(probeModel, runId, settings.full)) {
      const submits = spec.request.path === '/v1/media/generations' && spec.request.method === 'POST';
      if (submits && !(defaultPrice !== undefined && defaultPrice > 1))
        s.skip(
          spec.id,
          spec.label,
          'the default price is not known to be above 1 credit, so max_credits 1 could charge',
        );
      else await s.probe(spec);
    }
    if (defaultPrice !== undefined && defaultPrice > 1)
      await s.probe({
        id: 'over-ceiling',
        label: 'max_credits 1',
        how: 'error',
        request: ceilingSubmission(probeModel, `verify-${runId}-ceiling`),
      });
    const dear = prices.cheapestAbove(balance);
    if (dear !== undefined) {
      const json = {
        model_slug: dear.model,
        prompt: 'verify probe: over the balance',
        params: dear.params,
        max_credits: dear.credits,
      };
      const headers = { 'idempotency-key': `verify-${runId}-balance` };
      await s.probe({
        id: 'insufficient',
        label: `${dear.model} at ${dear.credits} credits, above the balance`,
        how: 'error',
        request: { method: 'POST', path: '/v1/media/generations', headers, json },
      });
    }
    const scope = options.scopedApiKey
      ? await scopedProbe(
          s,
          models.map((m) => m.slug),
        )
      : undefined;

    log('the emulator');
    await reference.setBalance(balance);
    if (scope?.allowed) await reference.scopeTo(scope.allowed);
    await s.compareWith(reference.send);
    const priceRows = await prices.compareWith(reference.send);
    const refCatalogue = await reference.send(all.request);
    for (const result of catalogueChecksFrom(liveCatalogue.body, refCatalogue.body)) s.record(result);

    const cheapest = prices.cheapestWithin(Math.min(settings.allowSpend, balance));
    const why =
      settings.allowSpend === 0
        ? 'needs --allow-spend (one cheapest generation)'
        : `--allow-spend ${settings.allowSpend} covers no probed price`;
    if (settings.allowSpend > 0) log('spend probes');
    await spendProbes(s, reference, cheapest, why, { runId, sleep, now, maxWaitSeconds: settings.maxWaitSeconds });

    return buildReport({
      service: serviceOf(options.baseUrl),
      startedAt,
      settings: {
        full: settings.full,
        rps: settings.rps,
        allow_spend: settings.allowSpend,
        scoped_key: Boolean(options.scopedApiKey),
        compared_with: comparedWith(options),
      },
      spent: s.spent,
      results: s.results,
      prices: priceRows,
      notes,
      secrets: [options.apiKey, options.scopedApiKey ?? ''],
    });
  } finally {
    await reference.close();
  }
}

/** Finds a model the scoped key may use and one it may not; the refusal is the check. */
async function scopedProbe(s: Session, slugs: string[]): Promise<{ allowed?: string }> {
  const estimate = (model: string) => ({
    method: 'POST' as const,
    path: '/v1/media/estimate',
    auth: 'scoped' as const,
    json: { model_slug: model, prompt: 'verify probe: key scope' },
  });
  let allowed: string | undefined;
  let refused: string | undefined;
  for (const slug of slugs) {
    const answer = await s.live(estimate(slug));
    if (answer.status === 200) allowed ??= slug;
    else if (answer.status !== 422) refused ??= slug;
    if (allowed && refused) break;
  }
  if (allowed && refused)
    await s.probe({ id: 'out-of-scope', label: `scoped key on ${refused}`, how: 'error', request: estimate(refused) });
  else
    s.skip(
      'out-of-scope',
      'scoped key',
      allowed ? 'the scoped key was accepted for every model' : 'the scoped key was accepted for no model',
    );
  return { allowed: allowed && refused ? allowed : undefined };
}

function checkOptions(o: VerifyOptions) {
  if (!URL.canParse(o.baseUrl) || !/^https?:$/.test(new URL(o.baseUrl).protocol))
    throw new VerifyError('baseUrl must be an http(s) URL such as https://staging.example.com');
  if (!o.apiKey) throw new VerifyError('apiKey is required');
  const allowSpend = o.allowSpend ?? 0;
  if (!Number.isSafeInteger(allowSpend) || allowSpend < 0)
    throw new VerifyError('allowSpend must be a whole number of credits >= 0');
  const rps = o.rps ?? 2;
  if (!(rps > 0)) throw new VerifyError('rps must be above 0');
  return {
    allowSpend,
    rps,
    full: o.full ?? false,
    maxWaitSeconds: o.maxWaitSeconds ?? 900,
    sleep: o.sleep ?? ((ms: number) => delay(ms).then(() => undefined)),
    now: o.now ?? Date.now,
    log: o.log ?? (() => {}),
  };
}

/** The base URL without user, password, query or fragment: what a report may show. */
export function serviceOf(baseUrl: string): string {
  if (!URL.canParse(baseUrl)) return '(invalid URL)';
  const url = new URL(baseUrl);
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

function comparedWith(o: VerifyOptions): string {
  if (o.calibration !== undefined)
    return typeof o.calibration === 'string'
      ? `the emulator with calibration ${o.calibration}`
      : 'the emulator with the given calibration';
  if (o.catalogue !== undefined) return 'the emulator with the given catalogue';
  return 'the emulator with its defaults';
}
