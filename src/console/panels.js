// The side panels: the clock with what comes next, and the wallet.
import { bodySchema, control } from './api.js';
import {
  badge,
  clockTime,
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
export function syncOptions(select, values, labelOf = (v) => v) {
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
      const r = await control.advance(by);
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
      const r = await control.advanceToNext();
      return `now ${clockTime(r.now)}, ${r.transitions} transition${r.transitions === 1 ? '' : 's'}`;
    }),
  );
  $('clock-toggle').addEventListener('click', () =>
    act(message, frozen ? 'Clock running' : 'Clock frozen', () => (frozen ? control.unfreeze() : control.freeze())),
  );
  syncOptions($('timing-profile'), bodySchema('setTiming').properties.profile.enum);
  $('timing-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const profile = $('timing-profile').value;
    act($('timing-message'), `Timing set to ${profile}`, () => control.setTiming({ profile }));
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
      const r = await (mode === 'set' ? control.setBalance(amount, account) : control.topUp(amount, account));
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
