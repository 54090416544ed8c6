// The list panels: API keys (create, revoke), fault rules (switch, add, remove) and the journal of recent requests.
import { api } from './api.js';
import { clockTime, credits, el, emptyRow, renderOnce, setText, syncRows } from './dom.js';

const $ = (id) => document.getElementById(id);

export function keysPanel({ run }) {
  let modelsLoaded = false;

  // The scope choices come from the public catalogue, read with a live key exactly as a client would.
  async function loadModels(keys) {
    const live =
      keys.find((k) => !k.revoked_at && !k.model_scope && !k.daily_credit_limit) ?? keys.find((k) => !k.revoked_at);
    if (!live) return;
    const { models } = await api('/v1/media/models', { bearer: live.secret });
    $('key-scope').replaceChildren(
      el('option', { value: '', text: 'All models' }),
      ...models.map((m) => el('option', { value: m.slug, text: `${m.slug} (${m.kind})` })),
    );
    modelsLoaded = true;
  }

  $('key-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const body = {};
    const name = $('key-name').value.trim();
    if (name) body.name = name;
    if ($('key-account').value) body.account_id = $('key-account').value;
    if ($('key-scope').value) body.model_scope = $('key-scope').value;
    if ($('key-ceiling').value !== '') body.daily_credit_limit = Number($('key-ceiling').value);
    run(name ? `Key ${name} created` : 'Key created', async () => {
      const { key } = await api('/_emulator/keys', { method: 'POST', body });
      event.target.reset();
      return `secret ${key.secret}`;
    });
  });

  function update(row, k) {
    setText(row.cells[0], k.name ?? k.id);
    row.cells[0].title = `${k.id} · ${k.account_id}`;
    setText(row.cells[1].firstChild, k.secret);
    setText(row.cells[2], k.model_scope ?? 'all models');
    setText(row.cells[3], k.daily_credit_limit ? credits(k.daily_credit_limit) : 'none');
    setText(row.cells[4], k.revoked_at ? `revoked ${clockTime(k.revoked_at)}` : 'active');
    row.classList.toggle('revoked', Boolean(k.revoked_at));
    renderOnce(row.cells[5], k.revoked_at ? 'revoked' : 'active', () =>
      k.revoked_at
        ? el('span', { className: 'muted', text: '–' })
        : el('button', {
            type: 'button',
            className: 'danger',
            text: 'Revoke',
            'aria-label': `Revoke key ${k.name ?? k.id}`,
            dataset: { action: 'revoke' },
            onclick: () =>
              run(`Key ${k.name ?? k.id} revoked`, () =>
                api(`/_emulator/keys/${encodeURIComponent(k.id)}/revoke`, { method: 'POST' }),
              ),
          }),
    );
  }

  return async function refresh() {
    const { keys } = await api('/_emulator/keys');
    if (!modelsLoaded) await loadModels(keys).catch(() => {});
    if (keys.length === 0) return emptyRow($('keys-body'), 6, 'No keys.');
    syncRows(
      $('keys-body'),
      keys,
      (k) => k.id,
      () =>
        el(
          'tr',
          {},
          el('th', { scope: 'row' }),
          el('td', {}, el('code', { className: 'secret' })),
          el('td'),
          el('td', { className: 'num' }),
          el('td'),
          el('td'),
        ),
      update,
    );
  };
}

/** A one-line reading of a rule's definition, whatever fields it has, so the table stays useful as rules grow. */
function summarize(rule) {
  const {
    id: _id,
    enabled: _enabled,
    description: _description,
    source: _source,
    created_at: _created,
    matched: _matched,
    fired: _fired,
    remaining: _remaining,
    spent: _spent,
    ...definition
  } = rule;
  return JSON.stringify(definition)
    .replace(/^\{|\}$/g, '')
    .replace(/"([^"]+)":/g, '$1: ')
    .replace(/,(?=\w+: )/g, ', ');
}

/** How much of the rule is used up: times fired, and what is left when it has a `times` budget. */
function usage(rule) {
  const parts = [`fired ${rule.fired ?? 0}×`];
  if (typeof rule.remaining === 'number') parts.push(rule.spent ? 'spent' : `${rule.remaining} left`);
  if (rule.source && rule.source !== 'api') parts.push(`from ${rule.source}`);
  return parts.join(' · ');
}

/** Starting points for the rule editor, in the rule format of POST /_emulator/faults. */
const PRESETS = {
  'Next submission answers 503': {
    description: 'Next submission answers 503',
    match: { method: 'POST', route: '/v1/media/generations' },
    times: 1,
    action: { type: 'status', status: 503, retry_after: '2s' },
  },
  'Next generation fails, refunded': {
    description: 'Next generation fails while running, refunded',
    match: { method: 'POST', route: '/v1/media/generations' },
    times: 1,
    action: { type: 'fail', at: 'running', code: 'generation_failed', refund: 'full' },
  },
  'Every API call takes 800 ms': {
    description: 'Every API call takes 800 ms',
    match: { route: '/v1/media/*' },
    action: { type: 'latency', ms: 800 },
  },
  'Next generation stalls': {
    description: 'Next generation never finishes',
    match: { method: 'POST', route: '/v1/media/generations' },
    times: 1,
    action: { type: 'stall' },
  },
};

export function faultsPanel({ run }) {
  const preset = $('fault-preset');
  preset.replaceChildren(...Object.keys(PRESETS).map((name) => el('option', { value: name, text: name })));
  const fill = () => ($('fault-json').value = JSON.stringify(PRESETS[preset.value], null, 2));
  preset.addEventListener('change', fill);
  fill();
  $('fault-form').addEventListener('submit', (event) => {
    event.preventDefault();
    let rule;
    try {
      rule = JSON.parse($('fault-json').value);
    } catch (error) {
      run('Rule added', () => Promise.reject(new Error(`The rule is not valid JSON: ${error.message}`)));
      return;
    }
    run('Fault rule added', () => api('/_emulator/faults', { method: 'POST', body: rule }));
  });
  $('faults-clear').addEventListener('click', () =>
    run('All fault rules removed', () => api('/_emulator/faults', { method: 'DELETE' })),
  );

  function update(row, f) {
    setText(row.cells[0], f.id);
    setText(row.cells[1].firstChild, f.description ?? summarize(f));
    row.cells[1].firstChild.title = summarize(f);
    setText(row.cells[1].lastChild, usage(f));
    row.classList.toggle('spent', Boolean(f.spent));
    renderOnce(row.cells[2], String(f.enabled !== false), () =>
      el('input', {
        type: 'checkbox',
        role: 'switch',
        checked: f.enabled !== false,
        'aria-label': `Rule ${f.id} enabled`,
        dataset: { action: 'toggle' },
        onchange: (e) =>
          run(`Rule ${f.id} switched ${e.currentTarget.checked ? 'on' : 'off'}`, () =>
            api(`/_emulator/faults/${encodeURIComponent(f.id)}`, {
              method: 'PATCH',
              body: { enabled: e.currentTarget.checked },
            }),
          ),
      }),
    );
    renderOnce(row.cells[3], 'remove', () =>
      el('button', {
        type: 'button',
        className: 'secondary',
        text: 'Remove',
        'aria-label': `Remove rule ${f.id}`,
        dataset: { action: 'remove' },
        onclick: () =>
          run(`Rule ${f.id} removed`, () => api(`/_emulator/faults/${encodeURIComponent(f.id)}`, { method: 'DELETE' })),
      }),
    );
  }

  return async function refresh() {
    const { faults } = await api('/_emulator/faults');
    $('faults-clear').disabled = faults.length === 0;
    if (faults.length === 0) return emptyRow($('faults-body'), 4, 'No fault rules. Every request behaves normally.');
    syncRows(
      $('faults-body'),
      faults,
      (f) => f.id,
      () =>
        el(
          'tr',
          {},
          el('th', { scope: 'row' }),
          el('td', { className: 'rule' }, el('div'), el('div', { className: 'muted small' })),
          el('td'),
          el('td'),
        ),
      update,
    );
  };
}

export function journalPanel({ run }) {
  $('journal-clear').addEventListener('click', () =>
    run('Journal cleared', () => api('/_emulator/journal', { method: 'DELETE' })),
  );

  return async function refresh() {
    // The journal holds /v1/media calls only, so the console's own polling never crowds out the app's requests.
    const { entries } = await api('/_emulator/journal?limit=25');
    // Newest first by id: on a frozen clock many entries share one timestamp.
    const shown = [...entries].sort((a, b) => b.id - a.id).slice(0, 25);
    if (shown.length === 0) return emptyRow($('journal-body'), 8, 'No requests recorded yet.');
    syncRows(
      $('journal-body'),
      shown,
      (e) => e.id,
      () =>
        el(
          'tr',
          {},
          ...Array.from({ length: 8 }, (_, i) => el('td', { className: i === 3 || i === 4 ? 'num' : undefined })),
        ),
      (row, e) => {
        const values = [
          clockTime(e.at),
          e.method,
          e.path,
          e.status,
          e.latency_ms === undefined || e.latency_ms === null ? '–' : `${e.latency_ms} ms`,
          e.key_id ?? '–',
          e.idempotency_key ?? '–',
          e.fault_id ?? '',
        ];
        values.forEach((v, i) => setText(row.cells[i], v));
        row.classList.toggle('http-error', e.status >= 400);
      },
    );
  };
}
