// The side panels: clock with what comes next, wallet, API keys, scenarios (previewed before loading), prompt markers.
import { api } from './api.js';
import {
  badge,
  clockTime,
  copyButton,
  credits,
  dateTime,
  el,
  emptyNote,
  relative,
  renderOnce,
  setText,
  syncChildren,
} from './dom.js';

const $ = (id) => document.getElementById(id);

/** Keeps a <select>'s options equal to `values` without resetting what the user picked. */
function syncOptions(select, values, labelOf = (v) => v) {
  const current = select.value;
  const wanted = values.map(String);
  if (wanted.join('\n') !== [...select.options].map((o) => o.value).join('\n'))
    select.replaceChildren(...values.map((v) => el('option', { value: String(v), text: labelOf(v) })));
  if (wanted.includes(current)) select.value = current;
}

export function clockPanel({ act }) {
  const message = $('clock-message');
  let frozen = false;
  const advance = (by) =>
    act(message, `Advanced ${by}`, async () => {
      const r = await api('/_emulator/clock/advance', { method: 'POST', body: { by } });
      return `now ${clockTime(r.now)}, ${r.transitions} transition${r.transitions === 1 ? '' : 's'}`;
    });
  $('advance-form').addEventListener('submit', (event) => {
    event.preventDefault();
    advance($('advance-by').value.trim());
  });
  for (const button of document.querySelectorAll('[data-advance]'))
    button.addEventListener('click', () => advance(button.dataset.advance));
  $('advance-next').addEventListener('click', () =>
    act(message, 'Advanced to the next transition', async () => {
      const r = await api('/_emulator/clock/advance-to-next', { method: 'POST' });
      return `now ${clockTime(r.now)}, ${r.transitions} transition${r.transitions === 1 ? '' : 's'}`;
    }),
  );
  $('clock-toggle').addEventListener('click', () =>
    act(message, frozen ? 'Clock running' : 'Clock frozen', () =>
      api(`/_emulator/clock/${frozen ? 'unfreeze' : 'freeze'}`, { method: 'POST' }),
    ),
  );
  $('timing-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const profile = $('timing-profile').value;
    act($('timing-message'), `Timing set to ${profile}`, () =>
      api('/_emulator/timing', { method: 'PUT', body: { profile } }),
    );
  });
  let timingShown = false;

  return {
    render(summary) {
      const clock = summary.clock;
      frozen = clock.frozen;
      setText($('clock-now'), dateTime(clock.now));
      $('clock-now').dateTime = clock.now;
      setText($('clock-state'), frozen ? 'frozen' : 'running');
      $('clock-state').className = `badge ${frozen ? 'state-pending' : 'state-completed'}`;
      setText($('clock-toggle'), frozen ? 'Unfreeze' : 'Freeze');
      setText(
        $('clock-note'),
        frozen
          ? 'Frozen: time moves only when you advance it. Files are served with Cache-Control: no-store.'
          : clock.moved
            ? 'Running, moved away from real time: files are served with no-store.'
            : 'Running in step with real time (UTC).',
      );
      if (!timingShown) {
        $('timing-profile').value = summary.emulator.timing;
        timingShown = true;
      }
      $('advance-next').disabled = summary.upcoming.length === 0;
      const list = $('upcoming');
      if (!summary.upcoming.length) return emptyNote(list, 'Nothing scheduled.');
      renderOnce(list, JSON.stringify([summary.upcoming, clock.now.slice(0, 19)]), () =>
        summary.upcoming.map((m) =>
          el(
            'li',
            {},
            el('a', { href: `#/generation/${encodeURIComponent(m.generation_id)}`, text: m.generation_id }),
            ' → ',
            badge(m.status, `state-${m.status}`),
            el('time', {
              dateTime: m.at,
              title: m.at,
              className: 'muted small',
              text: ` ${clockTime(m.at)} · ${relative(m.at, clock.now)}`,
            }),
          ),
        ),
      );
    },
  };
}

export function walletPanel({ act }) {
  $('topup-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const mode = event.submitter?.value === 'set' ? 'set' : 'add';
    const account = $('topup-account').value;
    const amount = Number($('topup-amount').value);
    const label =
      mode === 'set'
        ? `Balance set to ${credits(amount)}`
        : amount < 0
          ? `${credits(-amount)} credits taken away`
          : `${credits(amount)} credits added`;
    act($('topup-message'), label, async () => {
      const r = await api(`/_emulator/accounts/${encodeURIComponent(account)}/balance`, {
        method: 'POST',
        body: { [mode]: amount },
      });
      return `balance now ${credits(r.balance)}`;
    });
  });
  return {
    render(summary) {
      syncChildren(
        $('accounts'),
        summary.accounts,
        (a) => a.id,
        () => el('li', { className: 'account' }, el('span'), el('strong', { className: 'num' })),
        (li, a) => {
          setText(li.firstChild, a.name && a.name !== a.id ? `${a.name} (${a.id})` : a.id);
          setText(li.lastChild, `${credits(a.balance)} credits`);
          li.title = `${credits(a.funding)} credits added by top-ups and scenarios in total`;
        },
      );
      syncOptions(
        $('topup-account'),
        summary.accounts.map((a) => a.id),
      );
      syncOptions(
        $('key-account'),
        summary.accounts.map((a) => a.id),
      );
    },
  };
}

export function keysPanel({ act }) {
  $('key-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const body = {};
    const name = $('key-name').value.trim();
    if (name) body.name = name;
    if ($('key-account').value) body.account_id = $('key-account').value;
    if ($('key-scope').value) body.model_scope = $('key-scope').value;
    if ($('key-ceiling').value !== '') body.daily_credit_limit = Number($('key-ceiling').value);
    act($('key-message'), name ? `Key ${name} created` : 'Key created', async () => {
      const { key } = await api('/_emulator/keys', { method: 'POST', body });
      event.target.reset();
      return `secret ${key.secret}`;
    });
  });
  return {
    setCatalogue(catalogue) {
      syncOptions($('key-scope'), ['', ...catalogue.models.map((m) => m.slug)], (v) => v || 'All models');
    },
    render(summary) {
      syncChildren(
        $('keys-list'),
        summary.keys,
        (k) => k.id,
        () =>
          el(
            'li',
            { className: 'key-row' },
            el('div', { className: 'key-text' }),
            el('div', { className: 'key-actions' }),
          ),
        (li, k) => {
          li.classList.toggle('revoked', Boolean(k.revoked_at));
          renderOnce(li.firstChild, JSON.stringify([k.revoked_at, k.name]), () => [
            el('strong', { text: k.name ?? `key ${k.id}` }),
            el('span', {
              className: 'muted small',
              text: ` #${k.id} · ${k.account_id} · ${k.model_scope ?? 'all models'} · ceiling ${k.daily_credit_limit ?? 'none'}${k.revoked_at ? ` · revoked ${clockTime(k.revoked_at)}` : ''}`,
            }),
            el(
              'div',
              { className: 'link-row' },
              el('code', { className: 'secret', text: k.secret }),
              copyButton(k.secret, `Copy the secret of key ${k.id}`),
            ),
          ]);
          renderOnce(li.lastChild, String(Boolean(k.revoked_at)), () =>
            k.revoked_at
              ? null
              : el('button', {
                  type: 'button',
                  className: 'danger small-button',
                  dataset: { action: 'revoke' },
                  text: 'Revoke',
                  onclick: () =>
                    act($('key-message'), `Key ${k.id} revoked`, () =>
                      api(`/_emulator/keys/${k.id}/revoke`, { method: 'POST' }),
                    ),
                }),
          );
        },
      );
    },
  };
}

const stepText = (s) =>
  Object.entries(s)
    .map(([k, v]) => (k === 'op' ? v : `${k} ${typeof v === 'object' ? JSON.stringify(v) : v}`))
    .join(' · ');
const ruleText = (f) =>
  f.description ?? `${f.action?.type} on ${f.match?.route ?? 'any route'}${f.times ? `, ${f.times}×` : ''}`;

export function scenariosPanel({ act }) {
  return {
    setCatalogue(catalogue) {
      $('scenario-list').replaceChildren(
        ...catalogue.scenarios.map((s) => {
          const message = el('p', { className: 'note', role: 'status' });
          return el(
            'details',
            { className: 'scenario', dataset: { scenario: s.name } },
            el(
              'summary',
              {},
              el('strong', { text: s.name }),
              el('span', { className: 'muted small', text: ` ${s.description ?? ''}` }),
            ),
            s.expect && el('p', { className: 'small', text: `Expect: ${s.expect}` }),
            el('h4', { text: `Steps (${s.steps.length})` }),
            s.steps.length
              ? el(
                  'ol',
                  { className: 'small' },
                  s.steps.map((st) => el('li', { text: stepText(st) })),
                )
              : el('p', { className: 'muted small', text: 'None.' }),
            el('h4', { text: `Fault rules (${s.faults.length})` }),
            s.faults.length
              ? el(
                  'ol',
                  { className: 'small' },
                  s.faults.map((f) => el('li', { text: ruleText(f) })),
                )
              : el('p', { className: 'muted small', text: 'None.' }),
            el('button', {
              type: 'button',
              dataset: { action: 'load' },
              text: `Load ${s.name}`,
              onclick: () =>
                act(message, `Scenario ${s.name} loaded`, () =>
                  api('/_emulator/scenarios', { method: 'POST', body: { name: s.name } }),
                ),
            }),
            message,
          );
        }),
      );
    },
    render(summary) {
      const active = summary.scenario;
      renderOnce($('scenario-active'), JSON.stringify(active), () => {
        if (!active)
          return el('p', {
            className: 'muted',
            text: 'No scenario loaded. Open one below to see what it does before loading it.',
          });
        const spent = active.faults.filter((f) => f.spent).length;
        const message = el('p', { className: 'note', role: 'status' });
        return [
          el(
            'p',
            {},
            'Active: ',
            el('strong', { text: active.name }),
            ` · ${spent} of ${active.faults.length} rules spent${active.complete ? ' · played out' : ''}`,
          ),
          el('button', {
            type: 'button',
            className: 'secondary',
            text: 'Stop scenario',
            onclick: () =>
              act(message, 'Scenario stopped', () => api('/_emulator/scenarios/active', { method: 'DELETE' })),
          }),
          message,
        ];
      });
    },
  };
}

export function markersPanel() {
  return {
    setCatalogue(catalogue) {
      $('marker-list').replaceChildren(
        ...catalogue.markers.map((m) =>
          el(
            'li',
            { className: 'marker' },
            el('code', { text: m.marker }),
            el('span', { className: 'small', text: m.effect }),
            copyButton(m.marker, `Copy ${m.marker}`),
          ),
        ),
      );
    },
  };
}
