// The fidelity table's decisions (docs/api.md, "Fidelity table"), each with the checks that probe it or why none can.
export interface Decision {
  id: string;
  /** What the spec leaves open. */
  decision: string;
  /** What the emulator does about it. */
  emulator: string;
  /** Check ids whose results decide this row. */
  checks: string[];
  /** Why the row cannot be probed at all, or why it is when no check ran. */
  unprobed: string;
}

const SPEND = 'needs --allow-spend (one cheapest generation)';

export const DECISIONS: readonly Decision[] = [
  row('model-slugs', 'model slugs (`<model_slug_a>`, `<model_slug_b>`)', '`motion-lite-v1`, `keyframe-pro-v2`', [
    'specified-models',
  ]),
  row(
    'catalogue-shape',
    'catalogue response shape and field names (2.4, 4.1)',
    '`{ models: [entry] }` as in fixtures/catalogue.json',
    ['catalogue', 'catalogue-kinds'],
  ),
  row(
    'reference-limits',
    'reference input size/format limits (2.6)',
    'PNG/JPEG/WebP, 10 MiB, 64-4096 px',
    ['reference-inputs'],
    'the live catalogue has no `reference_inputs` the emulator can read',
  ),
  row('other-models', 'other models and kinds (1)', 'three example models for image, music and 3d', ['model-set']),
  row(
    'estimate-members',
    'estimate members beyond `credits`, `wallet_balance` (4.2)',
    '`breakdown`, resolved `params`, `sufficient_balance`',
    ['estimate-shape'],
  ),
  row(
    'reused-key',
    'reply to a reused Idempotency-Key with another body (4.3)',
    '`409 idempotency_key_reused`',
    ['reused-key'],
    SPEND,
  ),
  row(
    'over-ceiling',
    'price over `max_credits` (4.3)',
    '`402 max_credits_exceeded`, no charge',
    ['over-ceiling'],
    'no probed price is above 1 credit',
  ),
  row(
    'replay',
    'what a replay returns',
    'the original 202 body, `replayed: true`',
    ['replay'],
    'needs --allow-spend of twice the cheapest price (a service that does not replay charges again)',
  ),
  row(
    'idempotency-window',
    'idempotency window',
    '24 h of emulator time, per API key',
    [],
    'observing it takes 24 hours',
  ),
  row(
    'list-shape',
    'list page shape, ordering, next-cursor name (4.4)',
    '`{ generations, next_cursor, has_more, limit }`, newest first',
    ['list-shape', 'bad-cursor', 'list-limit'],
  ),
  row(
    'list-bounds',
    '`from` / `to` bounds',
    '`from` inclusive, `to` exclusive',
    [],
    'needs generations at known instants on both sides',
  ),
  row('usage-body', 'usage body (4.6)', "balance, today (UTC), per-model totals, the key's limits", ['usage-shape']),
  row('upload-members', 'upload response members (4.7)', '`id` (also `upload_id`) and file metadata', ['upload-shape']),
  row('target-slot', 'meaning of `target_slot` (4.7)', 'must name a slot of the model', ['upload-bad-slot']),
  row('direct-refs', 'direct URL / `data:` refs (2.6)', 'refused for the two video models (`model_ref_unsupported`)', [
    'direct-ref',
  ]),
  row('auth-failures', 'auth failure statuses and bodies (5.4, 7.7)', '`401` with four codes; auth before validation', [
    'auth-missing',
    'auth-malformed',
    'auth-unknown',
    'auth-before-validation',
  ]),
  row(
    'out-of-scope-key',
    'out-of-scope key (5.4)',
    '`403 model_not_allowed_for_key`',
    ['out-of-scope'],
    'needs --scoped-api-key, a key limited to one model',
  ),
  row(
    'insufficient-balance',
    'insufficient balance (7.7)',
    '`402 insufficient_credits`',
    ['insufficient'],
    'no probed price is above the wallet balance',
  ),
  row(
    'daily-ceiling',
    'daily ceiling exceeded; its default (7.7, 8)',
    '`429 daily_credit_limit_exceeded` + `Retry-After`',
    [],
    'reaching a ceiling means spending up to it',
  ),
  row('unknown-generation', 'unknown generation (7.7)', '`404 generation_not_found`', ['unknown-generation']),
  row(
    'state-moves',
    'state moves, failure conditions, refund rules (3)',
    'timers per profile; failures only when scripted',
    ['final-state', 'poll-after'],
    SPEND,
  ),
  row(
    'billing-status',
    '`billing_status` values beyond `charged` (2.1)',
    '`charged`, `partially_refunded`, `refunded`',
    [],
    'needs a failed or refunded generation, which a client cannot cause',
  ),
  row('error-members', '`error` members beyond `code` (2.1)', '`code` and `message`', [], 'needs a failed generation'),
  row('error-codes', '`error.code` values (7.6)', 'see docs/control-plane.md', [], 'needs failed generations'),
  row(
    'output-fields',
    'output fields beyond `url` (2.2)',
    '`index`, `mime_type`, `format`, `bytes`, `width`, `height`, ...',
    ['output-shape'],
    SPEND,
  ),
  row(
    'url-lifetime',
    'signed URL lifetime "about one hour"; expired link status',
    '3600 s; `403 url_expired`',
    ['url-lifetime'],
    `${SPEND}; the expired-link status needs an hour`,
  ),
  row(
    'lost-output',
    'a signed link whose file the service no longer holds (storage lost it)',
    'rendered again from the generation; `503 output_unavailable` if that render fails',
    [],
    "the service's storage cannot be made to lose a file",
  ),
  row(
    'download-faults',
    'a signed download that is slow, cut off or answered 5xx (storage, CDN)',
    'never on its own; fault rules on `/files/*` script it',
    [],
    "not probed: the service's storage fails on its own terms, and cannot be made to",
  ),
  row(
    'payload-too-large',
    '413 for a JSON body over 16 MiB',
    '`413 payload_too_large`',
    ['too-large'],
    'sends 16 MiB: only with --full',
  ),
  row(
    'header-overflow',
    'request headers over 16 KB, or HTTP the parser cannot read',
    "Node's `431` (or `400`), no body, the rest drained before the close",
    [],
    "not probed: such a request reaches the service's front proxy first, whose limit and answer are its own",
  ),
  row(
    'rate-limits',
    'request rate limits (8)',
    'none unless a fault rule adds `429`',
    [],
    'finding a limit means hitting it; 429s seen during the run are listed in the notes',
  ),
  row('events', 'events, webhooks (6)', 'none; poll', [], 'nothing to observe over the API'),
  row(
    'sandboxes',
    'several isolated tenants on one server (parallel test workers, a team)',
    'sandboxes, an emulator lever: each a whole world found by its API key',
    [],
    'an emulator lever: the real service has no sandboxes to probe (a key there is simply an account)',
  ),
  row('nullable-members', 'nullable optional members', 'JSON `null` means "not sent"', ['null-params']),
  row(
    'content-encoding',
    'a request body with a `Content-Encoding` (`gzip`, `deflate`, `br`, any other)',
    'read as sent: compressed JSON `400 body_not_utf8`, nothing charged',
    [],
    'not probed by verify: checked against FastAPI itself (`npm run conformance`, which sends every coding)',
  ),
  row(
    'stalled-requests',
    'a request whose headers or body stop arriving',
    '`408` after `headersTimeout` (10 s) or `bodyTimeout` (30 s) without a byte',
    [],
    "not probed: a stalled request reaches the service's front proxy first, whose timeout and answer are its own",
  ),
  row(
    'buffered-bodies',
    'request bodies held at once',
    'at most `maxBufferedBodyBytes` (64 MiB); past it `503 server_busy`',
    [],
    'not probed: finding the limit means loading the service with bodies until it refuses',
  ),
  row('deep-json', "JSON nested deeper than Python's decoder goes", '`400 body_too_deep` past 1,000 levels', [
    'deep-json',
  ]),
  row('clock-range', 'clock range', 'never past 9999-12-31T23:59:59Z', [], "the service's clock cannot be moved"),
  row(
    'id-format',
    'identifier format (`id`, `request_id`, upload ids: "string")',
    'a prefix and 20 base-36 characters, time-ordered; sequential with a seed',
    [],
    'the spec types ids as opaque strings, and no check compares their shapes',
  ),
  row(
    'rules-order',
    'unknown model vs model rules order',
    'schema 422s, then `404 model_not_found`, then model-rule 422s',
    ['unknown-model', 'unknown-model-bad-params', 'bad-slug'],
  ),
  row(
    'validation-framework',
    'validation framework and versions (7.3)',
    'FastAPI 0.142.2, Pydantic 2.13.5, Starlette 1.7.0 422 bodies',
    ['extra-member', 'short-idempotency-key'],
  ),
  row(
    'unrenderable-echo',
    '`NaN`, `Infinity`, `1E400`, lone surrogates, or a non-UTF-8 `text/plain` body echoed in a 422',
    'plain-text `500 Internal Server Error`, as Starlette answers',
    [],
    'a 500 is not something to calibrate; `npm run conformance` checks it against FastAPI itself',
  ),
  row('validation', 'bodies and headers refused at validation (4.2, 4.3, 7.3)', 'FastAPI 422 `detail` items', [
    'extra-member',
    'no-idempotency-key',
    'short-idempotency-key',
  ]),
];

function row(
  id: string,
  decision: string,
  emulator: string,
  checks: string[],
  unprobed = 'no answer was obtained',
): Decision {
  return { id, decision, emulator, checks, unprobed };
}
