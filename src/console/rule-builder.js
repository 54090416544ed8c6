// The fault-rule builder form: its fields, the rule they make, and which field owns each problem the emulator reports.
import { el } from './dom.js';

const ACTIONS = [
  ['status', 'Answer with an HTTP error'],
  ['latency', 'Slow answer (latency)'],
  ['reset', 'Reset the connection'],
  ['lost_response', 'Do the work, lose the answer'],
  ['hang', 'Never answer'],
  ['fail', 'Generation fails'],
  ['stall', 'Generation stalls'],
  ['slow', 'Generation runs slower'],
  ['expired_urls', 'Outputs with expired links'],
  ['missing_outputs', 'Outputs that answer 404'],
];

/** Problem field (as the emulator names it) -> builder input id. */
const FIELD_IDS = {
  id: 'fb-id',
  description: 'fb-description',
  'match.method': 'fb-method',
  'match.route': 'fb-route',
  'match.prompt': 'fb-prompt',
  'action.type': 'fb-action',
  'action.status': 'fb-status',
  'action.code': 'fb-code',
  'action.message': 'fb-message',
  'action.retry_after': 'fb-retry-after',
  'action.ms': 'fb-ms',
  'action.at': 'fb-at',
  'action.factor': 'fb-factor',
  'action.refund': 'fb-refund',
  'action.refund.partial': 'fb-partial',
  times: 'fb-times',
  after: 'fb-after',
  probability: 'fb-probability',
};
export const fieldIdFor = (field) =>
  field === 'action.code' && document.getElementById('fb-action')?.value === 'fail'
    ? 'fb-fail-code'
    : (FIELD_IDS[field] ?? null);

function field(id, label, control, hint) {
  control.id = id;
  control.setAttribute('aria-describedby', `${id}-error${hint ? ` ${id}-hint` : ''}`);
  return el(
    'div',
    { className: 'field' },
    el('label', { for: id, text: label }),
    control,
    hint && el('p', { id: `${id}-hint`, className: 'hint', text: hint }),
    el('p', { id: `${id}-error`, className: 'field-error', 'aria-live': 'polite' }),
  );
}
const input = (props = {}) => el('input', { autocomplete: 'off', ...props });
const select = (options) =>
  el(
    'select',
    {},
    options.map(([value, text]) => el('option', { value, text })),
  );
const group = (actions, ...children) =>
  el('div', { className: 'field-group', dataset: { forActions: actions } }, children);

export function BUILDER_FIELDS() {
  return [
    el('h3', { text: 'Build a rule' }),
    field('fb-action', 'What happens', select(ACTIONS)),
    group(
      'status',
      field('fb-status', 'HTTP status', input({ type: 'number', value: '503', min: '400', max: '599' })),
      field(
        'fb-code',
        'Error code',
        input({ placeholder: 'e.g. rate_limited' }),
        'Leave empty for the usual code of the status.',
      ),
      field('fb-message', 'Message', input({ placeholder: 'optional' })),
      field('fb-retry-after', 'Retry-After', input({ placeholder: 'e.g. 2s' })),
    ),
    group('latency', field('fb-ms', 'Delay', input({ value: '2s' }), 'A duration: 250ms, 2s, 1m.')),
    group(
      'fail',
      field('fb-fail-code', 'Error code', input({ value: 'internal_error' })),
      field(
        'fb-at',
        'Fails while',
        select([
          ['running', 'running'],
          ['pending', 'pending'],
        ]),
      ),
      field(
        'fb-refund',
        'Refund',
        select([
          ['full', 'full'],
          ['none', 'none'],
          ['partial', 'partial'],
        ]),
      ),
      field('fb-partial', 'Partial refund (credits)', input({ type: 'number', min: '1', value: '10' })),
    ),
    group('slow', field('fb-factor', 'Slower by', input({ type: 'number', value: '10', min: '1' }))),
    group(
      'expired_urls',
      el(
        'label',
        { className: 'inline' },
        input({ type: 'checkbox', id: 'fb-once' }),
        ' Only the first read (a re-read gives fresh links)',
      ),
    ),
    el('h4', { text: 'Which requests' }),
    field(
      'fb-method',
      'Method',
      select([
        ['', 'any'],
        ['GET', 'GET'],
        ['POST', 'POST'],
        ['DELETE', 'DELETE'],
      ]),
    ),
    field(
      'fb-route',
      'Route',
      input({ value: '/v1/media/generations' }),
      'Exact, with :param or a trailing *; empty for every /v1/media route.',
    ),
    field('fb-prompt', 'Prompt matches', input({ placeholder: '/sunset/i (optional)' })),
    el('h4', { text: 'How often' }),
    el(
      'div',
      { className: 'inline-grid' },
      field('fb-times', 'Times', input({ type: 'number', min: '1', placeholder: 'always' })),
      field('fb-after', 'After', input({ type: 'number', min: '0', placeholder: '0' })),
      field(
        'fb-probability',
        'Probability',
        input({ type: 'number', min: '0', max: '1', step: '0.05', placeholder: '1' }),
      ),
    ),
    el(
      'div',
      { className: 'match-grid' },
      field('fb-id', 'Rule id', input({ placeholder: 'generated' })),
      field('fb-description', 'Description', input({ placeholder: 'what this rehearses' })),
    ),
    el('div', { className: 'buttons' }, el('button', { type: 'submit', text: 'Add rule' })),
  ];
}

const num = (value) => (value === '' ? undefined : Number(value));

/** The rule the form describes; empty fields are left out so the emulator's defaults apply. */
export function ruleFromForm(form) {
  const v = (id) => {
    const node = form.querySelector(`#${id}`);
    return node ? (node.type === 'checkbox' ? node.checked : node.value.trim()) : '';
  };
  const type = v('fb-action');
  const action = { type };
  if (type === 'status')
    Object.assign(action, {
      status: num(v('fb-status')),
      code: v('fb-code') || undefined,
      message: v('fb-message') || undefined,
      retry_after: v('fb-retry-after') || undefined,
    });
  if (type === 'latency') action.ms = v('fb-ms');
  if (type === 'fail') {
    const refund = v('fb-refund');
    Object.assign(action, {
      code: v('fb-fail-code') || undefined,
      at: v('fb-at'),
      refund: refund === 'partial' ? { partial: num(v('fb-partial')) } : refund,
    });
  }
  if (type === 'slow') action.factor = num(v('fb-factor'));
  if (type === 'expired_urls' && v('fb-once')) action.once = true;
  const match = {
    method: v('fb-method') || undefined,
    route: v('fb-route') || undefined,
    prompt: v('fb-prompt') || undefined,
  };
  const rule = {
    id: v('fb-id') || undefined,
    description: v('fb-description') || undefined,
    match,
    times: num(v('fb-times')),
    after: num(v('fb-after')),
    probability: num(v('fb-probability')),
    action,
  };
  return JSON.parse(JSON.stringify(rule));
}
