// Magic prompt markers, like Stripe's test cards: `[emulator:fail=content_policy]` in a prompt scripts that generation's outcome.
import { ValidationFailure } from '../../domain/errors.js';
import { actionSchema, type GenerationFaultAction } from './fault-schema.js';
import { validationItem } from '../../domain/validation-item.js';
import { describeProblems, fieldProblems } from '../../domain/zod-issues.js';

const MARKER = /\[emulator:([^\]]*)\]/gi;

/** Every key a marker understands, with what it does; the error for an unknown key lists them. */
const MARKER_KEYS: Readonly<Record<string, string>> = {
  fail: 'fail=CODE: the generation fails with error.code CODE (content_policy fails while pending, anything else while running)',
  at: 'at=pending|running: when fail= strikes',
  after: 'after=DURATION: how long after entering that state fail= strikes (default 0)',
  refund: 'refund=full|none|partial:N: what happens to the charge when fail= strikes (default full)',
  delay: 'delay=DURATION: the generation completes DURATION after submission',
  pending: 'pending=DURATION: time spent pending',
  running: 'running=DURATION: time spent running',
  stall: 'stall: stays running forever',
  slow: 'slow=FACTOR: every timer FACTOR times longer',
  'expired-urls':
    "expired-urls: completes with output URLs that have already expired, on every read; expired-urls=once: only the first read's links are expired, a re-read gives fresh ones",
  'missing-outputs': 'missing-outputs: completes with output URLs that answer 404',
};

/** Ready-to-paste markers for the console's cheat sheet, like Stripe's test card numbers. */
export const MARKER_EXAMPLES: readonly { marker: string; effect: string }[] = [
  {
    marker: '[emulator:fail=content_policy]',
    effect: 'fails while pending with content_policy; the charge is refunded',
  },
  { marker: '[emulator:fail=internal_error]', effect: 'fails while running with internal_error; refunded in full' },
  { marker: '[emulator:fail=timeout,refund=none]', effect: 'fails with timeout and keeps the charge' },
  { marker: '[emulator:fail=internal_error,refund=partial:10]', effect: 'fails and refunds 10 credits of the charge' },
  { marker: '[emulator:fail=internal_error,after=30s]', effect: 'fails 30 s after it starts running' },
  { marker: '[emulator:delay=2m]', effect: 'completes 2 minutes after submission' },
  { marker: '[emulator:pending=1m,running=5s]', effect: 'queues for a minute, then runs for 5 s' },
  { marker: '[emulator:slow=10]', effect: 'every timer ten times longer' },
  { marker: '[emulator:stall]', effect: 'stays running forever (complete or fail it from the console)' },
  { marker: '[emulator:expired-urls]', effect: 'completes with links that are already expired (403), on every read' },
  {
    marker: '[emulator:expired-urls=once]',
    effect: 'the first read has expired links; reading again gives fresh ones',
  },
  { marker: '[emulator:missing-outputs]', effect: 'completes with links that answer 404 output_not_found' },
];

function refused(message: string, prompt: string): never {
  throw new ValidationFailure([
    validationItem(
      'emulator_marker_invalid',
      ['body', 'prompt'],
      `${message}. Known markers: ${Object.keys(MARKER_KEYS).join(', ')} (see docs/control-plane.md)`,
      prompt,
    ),
  ]);
}

function refundOf(value: string, prompt: string): unknown {
  const partial = /^partial:(\d+)$/.exec(value);
  if (partial) return { partial: Number(partial[1]) };
  if (value === 'full' || value === 'none') return value;
  return refused(`refund=${value} is not full, none or partial:N`, prompt);
}

/** The settings every marker in the prompt asks for, later ones winning; an unknown key is a 422 naming it. */
function collect(prompt: string): Map<string, string> {
  const settings = new Map<string, string>();
  for (const [, body] of prompt.matchAll(MARKER)) {
    for (const item of body
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)) {
      const [rawKey, ...rest] = item.split('=');
      const key = rawKey.trim().toLowerCase().replace(/_/g, '-');
      if (!(key in MARKER_KEYS)) refused(`Unknown emulator marker "${rawKey.trim()}"`, prompt);
      settings.set(key, rest.join('=').trim());
    }
  }
  return settings;
}

/** The generation actions the prompt's markers ask for, validated like fault rule actions. */
export function markerActions(prompt: string): GenerationFaultAction[] {
  // Every prompt passes here (estimates too); almost none carries a marker.
  if (!prompt.includes('[')) return [];
  const s = collect(prompt);
  if (s.size === 0) return [];
  const raw: Record<string, unknown>[] = [];
  /** `member: value` of the action when the marker gives `key`. */
  const given = (member: string, key = member) => (s.has(key) ? { [member]: s.get(key) } : {});
  if (s.has('fail')) {
    const code = s.get('fail') ?? '';
    raw.push({
      type: 'fail',
      code,
      at: s.get('at') ?? (code === 'content_policy' ? 'pending' : 'running'),
      ...given('delay', 'after'),
      ...(s.has('refund') ? { refund: refundOf(s.get('refund')!, prompt) } : {}),
    });
  } else {
    for (const key of ['at', 'after', 'refund'])
      if (s.has(key)) refused(`The marker ${key}= only works together with fail=CODE`, prompt);
  }
  if (s.has('delay') || s.has('pending') || s.has('running'))
    raw.push({ type: 'delay', ...given('total', 'delay'), ...given('pending'), ...given('running') });
  if (s.has('stall')) raw.push({ type: 'stall' });
  if (s.has('slow')) raw.push({ type: 'slow', factor: Number(s.get('slow')) });
  if (s.has('expired-urls')) {
    const mode = s.get('expired-urls');
    if (mode !== '' && mode !== 'once')
      refused(`expired-urls=${mode} is not valid; write expired-urls or expired-urls=once`, prompt);
    raw.push({ type: 'expired_urls', once: mode === 'once' });
  }
  if (s.has('missing-outputs')) raw.push({ type: 'missing_outputs' });
  return raw.map((action) => {
    const parsed = actionSchema.safeParse(action);
    if (!parsed.success)
      refused(
        `The emulator marker for "${String(action.type)}" is not valid: ${describeProblems(fieldProblems(parsed.error.issues))}`,
        prompt,
      );
    return parsed.data as GenerationFaultAction;
  });
}
