// The fault-rule builder form, made from the rule's schema (the addFault operation's body): every action with its fields,
// the matchers, the rule they make, and which field owns each problem the emulator reports.
import { bodySchema } from './api.js';
import { el } from './dom.js';

const RULE = bodySchema('addFault');
/** Each action's schema, by its `type`, in the schema's order. */
const ACTIONS = new Map(RULE.properties.action.oneOf.map((action) => [action.properties.type.const, action]));

/** Words for what the schema names tersely; anything else is shown by its name. */
const ACTION_LABELS = {
  status: 'Answer with an HTTP error',
  latency: 'Slow answer (latency)',
  reset: 'Reset the connection',
  empty: 'Close with an empty reply',
  hang: 'Never answer',
  dribble: 'Send the answer slowly, in pieces',
  lost_response: 'Do the work, lose the answer',
  fail: 'Generation fails',
  stall: 'Generation stalls',
  slow: 'Generation runs slower',
  delay: 'Generation waits longer',
  expired_urls: 'Outputs with expired links',
  missing_outputs: 'Outputs that answer 404',
};
const FIELD_LABELS = {
  status: 'HTTP status',
  code: 'Error code',
  retry_after: 'Retry-After',
  ms: 'Delay',
  at: 'Fails while',
  factor: 'Slower by',
  duration: 'Over',
  pending: 'Pending for',
  running: 'Running for',
  total: 'In all',
  once: 'Only the first read (a re-read gives fresh links)',
  method: 'Method',
  route: 'Route',
  model_slug: 'Model',
  key_id: 'API key id',
  prompt: 'Prompt matches',
  idempotency_key: 'Idempotency-Key',
};
/** By `<action type>.<member>` or `match.<member>`. */
const HINTS = {
  'status.code': 'Leave empty for the usual code of the status.',
  'match.route': 'Exact, with :param or a trailing *; empty for every /v1/media route.',
};
const words = (name) => name.replaceAll('_', ' ').replace(/^./, (c) => c.toUpperCase());

/** Problem field (as the emulator names it) -> input id, for the rule's own members (the rest follow `idOf`). */
const FIELD_IDS = {
  id: 'fb-id',
  description: 'fb-description',
  'action.type': 'fb-action',
  times: 'fb-times',
  after: 'fb-after',
  probability: 'fb-probability',
};
/** The input of `path` (`['action', 'status']`, `['match', 'route']`): an action's fields carry its type. */
const idOf = (path, type) => `fb-${(path[0] === 'action' ? [type, ...path.slice(1)] : path).join('-')}`;

export const fieldIdFor = (field) =>
  FIELD_IDS[field] ?? idOf(field.split('.'), document.getElementById('fb-action')?.value);

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

const isDuration = (s) =>
  s.anyOf?.some((o) => o.type === 'string' && o.pattern) && s.anyOf.some((o) => o.type === 'number');
/** `"full" | "none" | { "partial": n }`: one choice, and a number for a choice that is an object. */
const choiceOf = (s) => {
  const plain = s.anyOf?.find((o) => o.enum);
  const objects = s.anyOf?.filter((o) => o.type === 'object' && Object.keys(o.properties ?? {}).length === 1) ?? [];
  return plain && objects.length ? { plain: plain.enum, objects } : null;
};

/** The control (or controls) of one member, by its schema; nested objects are left to the JSON editor. */
function control(id, [owner, name], s, required) {
  const label = FIELD_LABELS[name] ?? words(name);
  const hint = HINTS[`${owner}.${name}`] ?? (isDuration(s) ? 'A duration: 250ms, 2s, 1m.' : undefined);
  const shown = s.default === undefined ? undefined : String(s.default);
  const choice = choiceOf(s);
  if (choice) {
    const keys = choice.objects.map((o) => Object.keys(o.properties)[0]);
    return [
      field(id, label, select([...choice.plain, ...keys].map((v) => [v, v]))),
      ...keys.map((key) =>
        field(`${id}-${key}`, `${label}: ${words(key).toLowerCase()}`, input({ type: 'number', min: '1' })),
      ),
    ];
  }
  if (s.type === 'boolean')
    return el(
      'label',
      { className: 'inline' },
      input({ type: 'checkbox', id, dataset: { kind: 'boolean' } }),
      ` ${label}`,
    );
  if (s.enum) {
    const options = s.enum.map((v) => [v, v]);
    const node = select(required || shown ? options : [['', 'any'], ...options]);
    if (shown) node.value = shown;
    return field(id, label, node, hint);
  }
  if (s.type === 'integer' || s.type === 'number') {
    const min =
      s.minimum ?? (s.exclusiveMinimum === undefined ? undefined : s.exclusiveMinimum + (s.type === 'integer' ? 1 : 0));
    const max = s.maximum === undefined || s.maximum > 1e12 ? undefined : s.maximum;
    const step = s.type === 'integer' ? '1' : 'any';
    const range = min !== undefined && max !== undefined ? `${min}–${max}` : undefined;
    const props = { type: 'number', step, min, max, dataset: { kind: 'number' }, placeholder: shown ?? range };
    return field(id, label, input(props), hint);
  }
  if (s.type === 'object') return null;
  const placeholder = shown ?? (isDuration(s) ? 'e.g. 2s' : required ? '' : 'optional');
  return field(id, label, input({ placeholder }), hint);
}

const members = (s, skip = []) => Object.entries(s.properties).filter(([name]) => !skip.includes(name));

export function BUILDER_FIELDS() {
  const match = RULE.properties.match;
  return [
    el('h3', { text: 'Build a rule' }),
    field('fb-action', 'What happens', select([...ACTIONS.keys()].map((t) => [t, ACTION_LABELS[t] ?? words(t)]))),
    ...[...ACTIONS].map(([type, action]) =>
      el(
        'div',
        { className: 'field-group', dataset: { forActions: type } },
        members(action, ['type']).flatMap(([name, s]) =>
          control(idOf(['action', name], type), [type, name], s, action.required?.includes(name)),
        ),
      ),
    ),
    el('h4', { text: 'Which requests' }),
    el(
      'div',
      { className: 'match-grid' },
      members(match).flatMap(([name, s]) => control(idOf(['match', name]), ['match', name], s, false)),
    ),
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

/** The members of `s` the form has values for; empty ones are left out so the emulator's defaults apply. */
function valuesOf(form, s, idFor) {
  const out = {};
  for (const [name, member] of members(s, ['type'])) {
    const node = form.querySelector(`#${idFor(name)}`);
    if (!node) continue;
    const value = node.type === 'checkbox' ? node.checked : node.value.trim();
    if (value === '' || value === false) continue;
    const object = choiceOf(member)?.objects.find((o) => value in o.properties);
    out[name] = object ? { [value]: num(form.querySelector(`#${idFor(name)}-${value}`).value) } : value;
    if (node.dataset.kind === 'number') out[name] = Number(value);
  }
  return out;
}

/** The rule the form describes. */
export function ruleFromForm(form) {
  const v = (id) => form.querySelector(`#${id}`).value.trim();
  const type = v('fb-action');
  const rule = {
    id: v('fb-id') || undefined,
    description: v('fb-description') || undefined,
    match: valuesOf(form, RULE.properties.match, (name) => idOf(['match', name])),
    times: num(v('fb-times')),
    after: num(v('fb-after')),
    probability: num(v('fb-probability')),
    action: { type, ...valuesOf(form, ACTIONS.get(type), (name) => idOf(['action', name], type)) },
  };
  return JSON.parse(JSON.stringify(rule));
}
