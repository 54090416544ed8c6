// The console's entry: wires the panels, runs one refresh loop, and reports every action's outcome in the live regions.
import { adminToken, api, describe, whenTokenNeeded } from './api.js';
import { setText } from './dom.js';
import { generationsView } from './generations.js';
import { faultsPanel, journalPanel, keysPanel } from './lists.js';
import { clockPanel, scenarioPanel, walletPanel } from './panels.js';

const $ = (id) => document.getElementById(id);
const POLL_MS = 1000;

function announce(text) {
  setText($('announcer'), text);
}

/** Runs one user action: the outcome goes to the status region (or the alert region), then everything refreshes at once. */
async function run(label, action) {
  setText($('error'), '');
  try {
    const detail = await action();
    setText($('message'), `${label}${typeof detail === 'string' ? `: ${detail}` : ''}.`);
  } catch (error) {
    setText($('message'), '');
    setText($('error'), `${label} failed: ${describe(error)}`);
  }
  await refreshAll();
}

const context = { run, announce };
const sections = {
  health: async () => {
    const h = await api('/_emulator/health');
    const renderer = h.renderer
      ? `${h.renderer.mode}${h.renderer.version ? ` ${h.renderer.version}` : ''}`
      : 'starting';
    setText(
      $('server-status'),
      `Emulator ${h.version} · renderer ${renderer} · timing ${h.timing?.profile ?? h.timing} · ${h.generations} generation${h.generations === 1 ? '' : 's'}`,
    );
  },
  wallet: walletPanel(context),
  clock: clockPanel(context),
  scenario: scenarioPanel(context),
  generations: generationsView({
    body: $('generations-body'),
    count: $('generations-count'),
    filter: $('generations-filter'),
    announce,
    run,
  }),
  keys: keysPanel(context),
  faults: faultsPanel(context),
  journal: journalPanel(context),
};

// Each section fails on its own (shown beside its heading), so one missing endpoint never blanks the whole page.
function showSectionError(name, error) {
  const heading = document.querySelector(`#${name}-heading`) ?? null;
  const card = heading?.closest('section');
  if (!card) return;
  let note = card.querySelector(':scope > .section-error');
  if (!error) return note?.remove();
  if (!note) {
    note = document.createElement('p');
    note.className = 'section-error';
    heading.closest('.section-head') ? heading.closest('.section-head').after(note) : heading.after(note);
  }
  setText(note, `Could not load: ${describe(error)}`);
}

const HEADINGS = {
  wallet: 'wallet',
  clock: 'clock',
  scenario: 'scenario',
  generations: 'generations',
  keys: 'keys',
  faults: 'faults',
  journal: 'journal',
};
let running = null;
let again = false;

async function refreshAll() {
  if (running) {
    again = true;
    return running;
  }
  running = (async () => {
    do {
      again = false;
      const names = Object.keys(sections);
      const results = await Promise.allSettled(names.map((n) => sections[n]()));
      results.forEach(
        (r, i) => HEADINGS[names[i]] && showSectionError(HEADINGS[names[i]], r.status === 'rejected' ? r.reason : null),
      );
      const failedHealth = results[0].status === 'rejected';
      if (failedHealth) setText($('server-status'), `Emulator not reachable: ${describe(results[0].reason)}`);
      setText($('updated-at'), `Updated ${new Date().toLocaleTimeString('en-GB', { hour12: false })}`);
    } while (again);
  })();
  try {
    await running;
  } finally {
    running = null;
  }
}

async function loop() {
  if ($('live').checked && !document.hidden) await refreshAll();
  setTimeout(loop, POLL_MS);
}

whenTokenNeeded(() => {
  const section = $('token-section');
  if (section.hidden) {
    section.hidden = false;
    $('token-input').focus();
  }
});
$('token-form').addEventListener('submit', (event) => {
  event.preventDefault();
  adminToken.set($('token-input').value.trim());
  $('token-input').value = '';
  $('token-section').hidden = true;
  run('Admin token saved for this tab', async () => {});
});
$('reset').addEventListener('click', () => {
  if (
    confirm(
      'Reset the emulator to its seeded state? Generations, keys, balances, faults and the journal are all rebuilt.',
    )
  )
    run('Emulator reset', () => api('/_emulator/reset', { method: 'POST' }));
});
$('generations-filter').addEventListener('change', () => refreshAll());
document.addEventListener('visibilitychange', () => !document.hidden && refreshAll());

loop();
