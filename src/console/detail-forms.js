// The detail view's two forms: fail with a chosen code, message and refund (full, none, partial), and refund.
import { bodySchema, control } from './api.js';
import { credits, el } from './dom.js';

/** `"full"`, `"none"` and `{ "partial": n }`, as the failure's schema has them. */
const REFUND_CHOICES = bodySchema('failGeneration').properties.refund.anyOf.flatMap(
  (o) => o.enum ?? Object.keys(o.properties),
);

let formSeq = 0;
const field = (label, control, hint) => {
  const id = control.id || `f${++formSeq}`;
  control.id = id;
  return el(
    'div',
    { className: 'field' },
    el('label', { for: id, text: label }),
    control,
    hint && el('p', { className: 'hint', text: hint }),
  );
};

export function failForm(g, catalogue, message, context) {
  const code = el(
    'select',
    { name: 'code' },
    catalogue.failure_codes.map((c) => el('option', { value: c.code, text: c.code })),
  );
  const text = el('input', { name: 'message', placeholder: 'default message for the code' });
  const left = g.charged_credits - g.refunded_credits;
  const radios = REFUND_CHOICES.map((value) =>
    el(
      'label',
      { className: 'inline' },
      el('input', { type: 'radio', name: `refund-${g.id}`, value, checked: value === 'full' }),
      ` ${value}`,
    ),
  );
  const amount = el('input', {
    type: 'number',
    name: 'amount',
    min: '1',
    max: String(Math.max(1, left)),
    step: '1',
    value: String(Math.max(1, Math.floor(left / 2))),
    'aria-label': 'Credits to refund',
  });
  const form = el(
    'form',
    { className: 'stack-form action-form', 'aria-label': `Fail ${g.id}` },
    el('h4', { text: 'Fail it' }),
    field('Error code', code),
    field('Message', text),
    el(
      'fieldset',
      { className: 'refund-choice' },
      el('legend', { text: `Refund (charged ${credits(left)})` }),
      ...radios,
      amount,
    ),
    el(
      'div',
      { className: 'buttons' },
      el('button', { type: 'submit', className: 'danger', dataset: { action: 'fail' }, text: 'Fail generation' }),
    ),
  );
  const sync = () =>
    (amount.disabled = form.querySelector(`input[name="refund-${g.id}"]:checked`)?.value !== 'partial');
  form.addEventListener('change', sync);
  sync();
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const choice = form.querySelector(`input[name="refund-${g.id}"]:checked`).value;
    const body = { code: code.value, refund: choice === 'partial' ? { partial: Number(amount.value) } : choice };
    if (text.value.trim()) body.message = text.value.trim();
    context.act(message, `${g.id} failed with ${code.value}`, async () => {
      const generation = await control.fail(g.id, body);
      return `refunded ${credits(generation.refunded_credits)} of ${credits(generation.charged_credits)}`;
    });
  });
  return form;
}

export function refundForm(g, message, context) {
  const left = g.net_credits;
  const amount = el('input', { type: 'number', min: '1', max: String(left), step: '1', placeholder: `all ${left}` });
  const form = el(
    'form',
    { className: 'row-form action-form', 'aria-label': `Refund ${g.id}` },
    field('Refund credits', amount),
    el('button', { type: 'submit', className: 'secondary', dataset: { action: 'refund' }, text: 'Refund' }),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const body = amount.value ? { amount: Number(amount.value) } : {};
    context.act(message, `Refund of ${g.id}`, async () => {
      const r = await control.refund(g.id, body.amount);
      return `${credits(r.refunded)} credits back`;
    });
  });
  return form;
}
