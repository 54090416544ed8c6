// The request inspector: the journal newest first; one entry with its fault rule and why, bodies, and copy as curl.
import { control, describe } from './api.js';
import { badge, clockTime, copyButton, el, emptyNote, setText, syncChildren } from './dom.js';

const $ = (id) => document.getElementById(id);
const shellQuote = (s) => `'${String(s).replace(/'/g, `'\\''`)}'`;

/** A curl command that repeats the request against this emulator, with the key's secret when the console knows it. */
export function curlOf(entry, keys) {
  const url = `${location.origin}${entry.path}${entry.query ? `?${entry.query}` : ''}`;
  const parts = [`curl -i -X ${entry.method} ${shellQuote(url)}`];
  const key = keys.find((k) => k.id === entry.key_id);
  parts.push(`-H ${shellQuote(`Authorization: Bearer ${key ? key.secret : '$MEDIA_API_KEY'}`)}`);
  if (entry.idempotency_key) parts.push(`-H ${shellQuote(`Idempotency-Key: ${entry.idempotency_key}`)}`);
  const body = entry.request_body;
  if (body && !body.truncated && !/^multipart\//.test(body.content_type ?? '')) {
    parts.push(`-H ${shellQuote(`Content-Type: ${body.content_type ?? 'application/json'}`)}`);
    parts.push(`--data-raw ${shellQuote(body.text)}`);
  }
  return parts.join(' \\\n  ');
}

const statusKind = (s) => (s === 0 || s >= 500 ? 'state-failed' : s >= 400 ? 'state-pending' : 'state-completed');

function bodyBlock(title, body) {
  if (!body)
    return el(
      'div',
      { className: 'body-block' },
      el('h4', { text: title }),
      el('p', {
        className: 'muted small',
        text: 'None kept: there was no body, a fault answered before it was read, or the request is older than the newest 500.',
      }),
    );
  let text = body.text;
  if (!body.truncated && /json/.test(body.content_type ?? ''))
    try {
      text = JSON.stringify(JSON.parse(text), null, 2);
    } catch {}
  return el(
    'div',
    { className: 'body-block' },
    el('h4', {
      text: `${title} · ${body.bytes.toLocaleString('en-US')} bytes${body.content_type ? ` · ${body.content_type}` : ''}`,
    }),
    el('pre', { className: 'code', tabIndex: 0, text }),
    body.truncated &&
      el('p', {
        className: 'truncated small',
        text: `Truncated: showing the first 4 KB of ${body.bytes.toLocaleString('en-US')} bytes.`,
      }),
  );
}

export function inspectorPanel(context) {
  let selected = null;
  let keys = [];
  let shownFor = null;

  async function show(id) {
    selected = id;
    for (const row of $('journal-list').children)
      row.setAttribute('aria-current', String(row.dataset.key === String(id)));
    const pane = $('journal-entry');
    try {
      const entry = await control.journalEntry(id);
      shownFor = id;
      const curl = curlOf(entry, keys);
      pane.replaceChildren(
        el('h3', {}, el('code', { text: `${entry.method} ${entry.path}${entry.query ? `?${entry.query}` : ''}` })),
        el(
          'p',
          { className: 'entry-facts' },
          badge(entry.status === 0 ? 'no answer' : String(entry.status), statusKind(entry.status)),
          el('span', { text: ` ${entry.latency_ms} ms · ${clockTime(entry.at)} · key ${entry.key_id ?? 'none'}` }),
          entry.idempotency_key &&
            el('span', { className: 'muted', text: ` · Idempotency-Key ${entry.idempotency_key}` }),
          entry.generation_id &&
            el('a', {
              href: `#/generation/${encodeURIComponent(entry.generation_id)}`,
              text: ` → ${entry.generation_id}`,
            }),
        ),
        entry.fault_id
          ? el(
              'div',
              { className: 'fault-why' },
              el('strong', { text: `Fault rule ${entry.fault_id} acted` }),
              el('p', { className: 'small', text: `Why it matched: ${entry.fault_reason ?? 'not recorded'}` }),
            )
          : el('p', { className: 'muted small', text: 'No fault rule matched this request.' }),
        bodyBlock('Request body', entry.request_body),
        bodyBlock('Response body', entry.response_body),
        el(
          'div',
          { className: 'curl' },
          el(
            'div',
            { className: 'link-row' },
            el('h4', { text: 'As curl' }),
            copyButton(curl, 'Copy as curl', 'small-button'),
          ),
          el('pre', { className: 'code curl-text', text: curl }),
        ),
      );
    } catch (error) {
      pane.replaceChildren(
        el('p', { className: 'note error', text: `Could not load request ${id}: ${describe(error)}` }),
      );
    }
  }

  $('journal-list').addEventListener('click', (event) => {
    const row = event.target.closest('[data-key]');
    if (row) show(Number(row.dataset.key));
  });
  document.body.addEventListener('console:inspect', (event) => {
    show(event.detail);
    $('requests').scrollIntoView();
  });
  $('journal-clear').addEventListener('click', () => {
    selected = null;
    shownFor = null;
    $('journal-entry').replaceChildren(el('p', { className: 'muted', text: 'Choose a request to inspect it.' }));
    context.act($('journal-message'), 'Journal cleared', () => control.clearJournal());
  });

  return {
    render(summary, _catalogue) {
      keys = summary.keys;
      const { entries, size } = summary.journal;
      setText($('requests-count'), `(${size})`);
      if (!entries.length)
        return emptyNote($('journal-list'), 'No requests yet. Your app’s /v1/media calls show up here.');
      syncChildren(
        $('journal-list'),
        entries,
        (e) => e.id,
        (e) =>
          el(
            'button',
            { type: 'button', className: 'journal-row', role: 'listitem' },
            badge(e.status === 0 ? '—' : String(e.status), statusKind(e.status)),
            el('code', { className: 'journal-path', text: `${e.method} ${e.path}` }),
            el('span', { className: 'muted small journal-meta', text: `${clockTime(e.at)} · ${e.latency_ms} ms` }),
            e.fault_id && el('span', { className: 'badge fault', text: `fault ${e.fault_id}` }),
          ),
        (row, e) => row.setAttribute('aria-current', String(e.id === selected)),
      );
      if (selected !== null && shownFor !== selected) show(selected);
    },
  };
}
