// The console's entry: one summary request per refresh, the detail route in the URL hash, and the token prompt.
import { adminToken, adoptTokenFromUrl, control, describe, isAnswered, problemsOf, whenTokenNeeded } from './api.js';
import { detailView } from './detail.js';
import { setText } from './dom.js';
import { faultsPanel } from './faults.js';
import { generationsList } from './generations.js';
import { inspectorPanel } from './inspector.js';
import { keysPanel } from './keys.js';
import { lockControls } from './locked.js';
import { clockPanel, walletPanel } from './panels.js';
import { sandboxSwitcher } from './sandboxes.js';
import { markersPanel, scenariosPanel } from './scenarios.js';

const $ = (id) => document.getElementById(id);
// `?refresh=500` speeds the loop up (tests use it); never below 200 ms, so a typo cannot flood the emulator.
const REFRESH_MS = Math.max(200, Number(new URLSearchParams(location.search).get('refresh')) || 2000);

/**
 * Runs one user action and puts its outcome in `where`, the message element next to the control that caused it;
 * then everything refreshes at once.
 */
async function run(where, label, action) {
  where.classList.remove('error', 'ok');
  setText(where, `${label}…`);
  try {
    const detail = await action();
    setText(where, `${label}${typeof detail === 'string' ? `: ${detail}` : ''}.`);
    where.classList.add('ok');
    return true;
  } catch (error) {
    // The message sits next to the control that failed, so it need not repeat what was tried.
    setText(where, `Not done: ${describe(error)}`);
    where.classList.add('error');
    if (problemsOf(error).length) where.dataset.problems = JSON.stringify(problemsOf(error));
    throw error;
  } finally {
    refresh();
  }
}
/** The same, for callers that have shown the error already and need not handle it. */
const act = (where, label, action) => run(where, label, action).catch(() => false);

const context = { run, act, announce: (text) => setText($('announcer'), text) };
const catalogue = {
  models: [],
  failure_codes: [],
  markers: [],
  scenarios: [],
  fault_actions: { http: [], generation: [] },
};
const views = {
  list: generationsList(context),
  detail: detailView(context),
  clock: clockPanel(context),
  wallet: walletPanel(context),
  keys: keysPanel(context),
  inspector: inspectorPanel(context),
  faults: faultsPanel(context),
  scenarios: scenariosPanel(context),
  markers: markersPanel(context),
};

function route() {
  const match = /^#\/generation\/([^/]+)$/.exec(location.hash);
  return match ? decodeURIComponent(match[1]) : null;
}

function showRoute() {
  const id = route();
  $('generations').hidden = id !== null;
  $('detail').hidden = id === null;
  views.detail.open(id);
  if (id) $('detail').focus({ preventScroll: false });
  refresh();
}

/** The status line after a failed call: a token to give, an answer that was an error, or no answer at all. */
function showFailure(what, error) {
  const tokenNeeded = isAnswered(error) && error.status === 401 && /^admin_token_/.test(error.code);
  setText(
    $('server-status'),
    tokenNeeded
      ? 'Admin token required: paste it below, or open the console link the emulator printed at start-up (its terminal, or docker logs for the image).'
      : isAnswered(error)
        ? `${what} failed: ${describe(error)}`
        : `Emulator not reachable: ${describe(error)}`,
  );
}

let running = null;
let again = false;
let refreshes = 0;

/** One summary (plus the open detail, if any); overlapping calls fold into one more pass. */
async function refresh() {
  if (running) {
    again = true;
    return running;
  }
  running = (async () => {
    do {
      again = false;
      try {
        const summary = await control.summary(views.list.query());
        const e = summary.emulator;
        setText(
          $('server-status'),
          `v${e.version} · renderer ${e.renderer} · timing ${e.timing}${e.magic_prompts ? '' : ' · markers off'}`,
        );
        lockControls(false);
        for (const view of Object.values(views)) await view.render?.(summary, catalogue);
      } catch (error) {
        showFailure('Reading the summary', error);
      }
      refreshes += 1;
      document.body.dataset.refreshes = String(refreshes);
    } while (again);
  })();
  try {
    await running;
  } finally {
    running = null;
  }
}

async function loop() {
  if ($('live').checked && !document.hidden) await refresh();
  setTimeout(loop, REFRESH_MS);
}

async function loadCatalogue() {
  try {
    Object.assign(catalogue, await control.catalogue());
    for (const view of Object.values(views)) view.setCatalogue?.(catalogue);
  } catch (error) {
    showFailure('Loading the catalogue', error);
  }
}

whenTokenNeeded((code) => {
  lockControls(true);
  const section = $('token-section');
  setText(
    $('token-message'),
    code === 'admin_token_invalid' ? 'The saved token was refused; paste the current one.' : '',
  );
  if (section.hidden) {
    section.hidden = false;
    $('token-input').focus();
  }
});
$('token-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  adminToken.set($('token-input').value.trim());
  $('token-input').value = '';
  $('token-section').hidden = true;
  await loadCatalogue();
  refresh();
});
$('reset').addEventListener('click', () => {
  if (
    confirm('Reset the emulator to its seeded state? Generations, keys, balances, faults and the journal are rebuilt.')
  )
    act($('reset-message'), 'Emulator reset', () => control.reset());
});
document.body.addEventListener('console:refresh', () => refresh());
document.addEventListener('visibilitychange', () => !document.hidden && refresh());
window.addEventListener('hashchange', () => {
  if (adoptTokenFromUrl()) return loadCatalogue().then(refresh);
  if (route() !== null || !$('detail').hidden) showRoute();
});

adoptTokenFromUrl();
context.refresh = refresh;
await sandboxSwitcher($('sandbox'));
await loadCatalogue();
showRoute();
loop();
