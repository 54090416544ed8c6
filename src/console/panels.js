// The small panels: wallet balance and top-up, the emulator clock and timing profile, and the active scenario.
import { api } from './api.js';
import { clockTime, credits, dateTime, el, setText, syncRows } from './dom.js';

const $ = (id) => document.getElementById(id);

/** Keeps a <select>'s options equal to `values` without resetting what the user picked. */
function syncOptions(select, values, labelOf = (v) => v) {
  const current = select.value;
  const wanted = values.map(String);
  const have = [...select.options].map((o) => o.value);
  if (wanted.join('\n') !== have.join('\n'))
    select.replaceChildren(...values.map((v) => el('option', { value: String(v), text: labelOf(v) })));
  if (wanted.includes(current)) select.value = current;
}

export function walletPanel({ run }) {
  const form = $('topup-form');
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const mode = event.submitter?.value === 'set' ? 'set' : 'add';
    const account = $('topup-account').value;
    const amount = Number($('topup-amount').value);
    run(mode === 'add' ? `Top-up of ${credits(amount)} credits` : `Balance set to ${credits(amount)}`, async () => {
      const result = await api(`/_emulator/accounts/${encodeURIComponent(account)}/balance`, {
        method: 'POST',
        body: { [mode]: amount },
      });
      return `balance now ${credits(result.balance)}`;
    });
  });

  return async function refresh() {
    const { accounts } = await api('/_emulator/accounts');
    const first = accounts[0];
    setText($('balance'), first ? credits(first.balance) : '–');
    setText($('balance-account'), first && accounts.length > 1 ? `(${first.name ?? first.id})` : '');
    syncRows(
      $('accounts-body'),
      accounts,
      (a) => a.id,
      () => el('tr', {}, el('th', { scope: 'row' }), el('td', { className: 'num' }), el('td', { className: 'num' })),
      (row, a) => {
        setText(row.cells[0], a.name && a.name !== a.id ? `${a.name} (${a.id})` : a.id);
        setText(row.cells[1], credits(a.balance));
        setText(row.cells[2], credits(a.funding));
      },
    );
    syncOptions(
      $('topup-account'),
      accounts.map((a) => a.id),
      (id) => accounts.find((a) => a.id === id)?.name ?? id,
    );
    syncOptions(
      $('key-account'),
      accounts.map((a) => a.id),
      (id) => accounts.find((a) => a.id === id)?.name ?? id,
    );
    return accounts;
  };
}

export function clockPanel({ run }) {
  let frozen = false;
  const advance = (by) =>
    run(`Clock advanced by ${by}`, async () => {
      const r = await api('/_emulator/clock/advance', { method: 'POST', body: { by } });
      const moved = Array.isArray(r.transitions) ? r.transitions.length : r.transitions;
      return `now ${clockTime(r.now)}${moved !== undefined ? `, ${moved} transition${moved === 1 ? '' : 's'}` : ''}`;
    });
  $('advance-form').addEventListener('submit', (event) => {
    event.preventDefault();
    advance($('advance-by').value.trim());
  });
  for (const button of document.querySelectorAll('[data-advance]'))
    button.addEventListener('click', () => advance(button.dataset.advance));
  $('clock-toggle').addEventListener('click', () => {
    const verb = frozen ? 'unfreeze' : 'freeze';
    run(frozen ? 'Clock running' : 'Clock frozen', () => api(`/_emulator/clock/${verb}`, { method: 'POST' }));
  });
  $('timing-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const profile = $('timing-profile').value;
    run(`Timing set to ${profile}`, () => api('/_emulator/timing', { method: 'PUT', body: { profile } }));
  });

  let timingShown = false;
  return async function refresh() {
    const [clock, timing] = await Promise.all([api('/_emulator/clock'), timingShown ? null : api('/_emulator/timing')]);
    frozen = Boolean(clock.frozen);
    const now = $('clock-now');
    setText(now, dateTime(clock.now));
    now.dateTime = clock.now;
    setText($('clock-state'), frozen ? 'frozen' : 'running');
    $('clock-state').className = `badge ${frozen ? 'state-pending' : 'state-completed'}`;
    setText($('clock-toggle'), frozen ? 'Unfreeze clock' : 'Freeze clock');
    // The select follows the server once, then belongs to the user until they apply it.
    if (timing) {
      $('timing-profile').value = timing.profile;
      timingShown = true;
    }
  };
}

export function scenarioPanel({ run }) {
  $('scenario-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const name = $('scenario-name').value;
    if (name) run(`Scenario ${name} loaded`, () => api('/_emulator/scenarios', { method: 'POST', body: { name } }));
  });
  $('scenario-stop').addEventListener('click', () =>
    run('Scenario stopped', () => api('/_emulator/scenarios/active', { method: 'DELETE' })),
  );

  return async function refresh() {
    const { available, active } = await api('/_emulator/scenarios');
    const names = (available ?? []).map((a) => (typeof a === 'string' ? a : a.name));
    syncOptions($('scenario-name'), names.length ? names : [''], (v) => v || 'none available');
    $('scenario-name').disabled = names.length === 0;
    $('scenario-form').querySelector('button').disabled = names.length === 0;
    setText(
      $('scenario-note'),
      names.length === 0 ? 'No scenarios found in fixtures/scenarios.' : 'Loading one replaces the active scenario.',
    );
    setText($('scenario-active'), active ? (active.name ?? 'custom') : 'none');
    $('scenario-stop').disabled = !active;
    setText($('scenario-progress'), active ? progressText(active) : '');
  };
}

/** "2 of 3 rules spent · 1 of 1 steps run · complete": enough to see whether the script has played out. */
function progressText(active) {
  const parts = [];
  if (active.description) parts.push(active.description);
  const faults = active.faults ?? [];
  if (faults.length) parts.push(`${faults.filter((f) => f.spent).length} of ${faults.length} rules spent`);
  if (active.steps?.total) parts.push(`${active.steps.run} of ${active.steps.total} steps run`);
  if (active.complete) parts.push('complete');
  return parts.join(' · ');
}
