// Fault rules: the list (switch, remove), a builder form for every action with errors by field, and the JSON editor.
import { control, describe, problemsOf } from './api.js';
import { badge, el, emptyNote, renderOnce, setText, syncChildren } from './dom.js';
import { BUILDER_FIELDS, fieldIdFor, ruleFromForm } from './rule-builder.js';

const $ = (id) => document.getElementById(id);

function ruleSummary(f) {
  const m = f.match ?? {};
  const when = [m.method, m.route, m.model_slug && `model ${m.model_slug}`, m.prompt && `prompt ${m.prompt}`]
    .filter(Boolean)
    .join(' ');
  const a = f.action ?? {};
  const what =
    a.type === 'status'
      ? `answer ${a.status}${a.code ? ` ${a.code}` : ''}`
      : a.type === 'fail'
        ? `fail with ${a.code ?? 'internal_error'}`
        : a.type;
  const count = f.times ? ` · ${f.fired} of ${f.times} fired` : ` · fired ${f.fired}`;
  return `${what} when ${when || 'any /v1/media request'}${count}`;
}

/** Shows each problem under its field; the ones no field owns go in the list under the JSON editor. */
function showProblems(problems) {
  for (const note of document.querySelectorAll('#rule-form .field-error')) note.textContent = '';
  for (const input of document.querySelectorAll('#rule-form [aria-invalid]')) input.removeAttribute('aria-invalid');
  const rest = [];
  for (const p of problems) {
    const input = $(fieldIdFor(p.field));
    const note = input && document.getElementById(`${input.id}-error`);
    if (note && !input.closest('[hidden]')) {
      note.textContent = p.message;
      input.setAttribute('aria-invalid', 'true');
    } else rest.push(p);
  }
  $('rule-json-errors').replaceChildren(...rest.map((p) => el('li', { text: `${p.field}: ${p.message}` })));
  document.querySelector('#rule-form [aria-invalid]')?.focus();
}

export function faultsPanel(context) {
  const form = $('rule-form');
  form.append(...BUILDER_FIELDS());
  const writeJson = () => ($('rule-json').value = JSON.stringify(ruleFromForm(form), null, 2));
  const syncKind = () => {
    const type = $('fb-action').value;
    for (const group of form.querySelectorAll('[data-for-actions]'))
      group.hidden = !group.dataset.forActions.split(' ').includes(type);
  };
  form.addEventListener('input', writeJson);
  form.addEventListener('change', () => {
    syncKind();
    writeJson();
  });
  syncKind();
  writeJson();

  $('rule-json-form').addEventListener('submit', (event) => {
    event.preventDefault();
    let rule;
    try {
      rule = JSON.parse($('rule-json').value);
    } catch (error) {
      showProblems([{ field: 'JSON', message: `not valid JSON (${error.message})` }]);
      setText($('rule-message'), 'Fix the JSON first.');
      $('rule-message').className = 'note error';
      return;
    }
    showProblems([]);
    context
      .run($('rule-message'), 'Rule added', async () => {
        const fault = await control.faults.add(rule);
        return `${fault.id} is live`;
      })
      .catch((error) =>
        showProblems(problemsOf(error).length ? problemsOf(error) : [{ field: 'rule', message: describe(error) }]),
      );
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    $('rule-json-form').requestSubmit();
  });
  $('faults-clear').addEventListener('click', () =>
    context.act($('rule-message'), 'All rules removed', () => control.faults.clear()),
  );

  const rowActions = (f) => [
    el('button', {
      type: 'button',
      className: 'secondary small-button',
      dataset: { action: 'toggle' },
      text: f.enabled ? 'Disable' : 'Enable',
      onclick: () =>
        context.act($('faults-message'), `${f.id} ${f.enabled ? 'disabled' : 'enabled'}`, () =>
          f.enabled ? control.faults.disable(f.id) : control.faults.enable(f.id),
        ),
    }),
    el('button', {
      type: 'button',
      className: 'danger small-button',
      dataset: { action: 'remove' },
      text: 'Remove',
      onclick: () => context.act($('faults-message'), `${f.id} removed`, () => control.faults.remove(f.id)),
    }),
  ];

  return {
    render(summary) {
      const list = $('faults-list');
      if (!summary.faults.length) return emptyNote(list, 'No rules: every request gets the normal answer.');
      syncChildren(
        list,
        summary.faults,
        (f) => f.id,
        () =>
          el(
            'div',
            { className: 'rule-row', role: 'listitem' },
            el('div', { className: 'rule-text' }),
            el('div', { className: 'rule-actions' }),
          ),
        (row, f) => {
          renderOnce(row.firstChild, JSON.stringify([f.enabled, f.spent, f.fired, f.matched]), () => [
            el('code', { text: f.id }),
            ' ',
            badge(
              f.spent ? 'spent' : f.enabled ? 'on' : 'off',
              f.spent ? 'plain' : f.enabled ? 'state-completed' : 'plain',
            ),
            f.source !== 'api' && el('span', { className: 'muted small', text: ` ${f.source}` }),
            el('div', { className: 'small', text: f.description ?? ruleSummary(f) }),
            f.description && el('div', { className: 'muted small', text: ruleSummary(f) }),
          ]);
          renderOnce(row.lastChild, String(f.enabled), () => rowActions(f));
        },
      );
    },
  };
}
