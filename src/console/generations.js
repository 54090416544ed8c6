// The generations table: live state, credits and billing per row, a player per output, and lifecycle actions.
import { api } from './api.js';
import { clockTime, credits, el, emptyRow, renderOnce, setText, syncRows } from './dom.js';

const ACTIVE = new Set(['pending', 'running']);

/** The outputs cell: one player per file, created once so playback and seeking survive every refresh. */
function renderOutputs(cell, g) {
  if (g.status !== 'completed' || !g.outputs?.length) {
    renderOnce(cell, `none:${g.status}`, () =>
      el('span', { className: 'muted', text: g.status === 'failed' ? 'none' : '…' }),
    );
    return;
  }
  renderOnce(cell, `outputs:${g.outputs.length}`, () => g.outputs.map((o) => outputElement(g, o)));
  // Signed URLs change on every read; a player keeps its first URL unless that one failed (expired or evicted).
  for (const media of cell.querySelectorAll('[data-output]')) {
    const output = g.outputs[Number(media.dataset.output)];
    if (output && media.dataset.failed === 'true') {
      media.dataset.failed = 'false';
      media.src = output.url;
    }
  }
}

function outputElement(g, o) {
  const label = `Output ${o.index + 1} of ${g.id}`;
  const common = {
    src: o.url,
    dataset: { output: String(o.index) },
    'aria-label': label,
    onerror: (e) => (e.currentTarget.dataset.failed = 'true'),
  };
  const kind = (o.mime_type ?? '').split('/')[0];
  const meta = [
    o.width && o.height ? `${o.width}×${o.height}` : '',
    o.duration_seconds ? `${o.duration_seconds} s` : '',
    o.format,
  ]
    .filter(Boolean)
    .join(' · ');
  let media;
  if (kind === 'video')
    media = el('video', { ...common, controls: true, preload: 'metadata', playsInline: true, width: 192 });
  else if (kind === 'audio') media = el('audio', { ...common, controls: true, preload: 'metadata' });
  else if (kind === 'image') media = el('img', { ...common, alt: label, width: 160 });
  else media = el('a', { href: o.url, download: '', text: `Download ${o.format}`, 'aria-label': `Download ${label}` });
  return el('figure', { className: 'output' }, media, el('figcaption', { className: 'muted', text: meta }));
}

function actionButtons(g, run) {
  const act = (action, text, label, path, body, className) =>
    el('button', {
      type: 'button',
      className,
      text,
      'aria-label': `${label} ${g.id}`,
      dataset: { action },
      onclick: () =>
        run(`${label} ${g.id}`, () =>
          api(`/_emulator/generations/${encodeURIComponent(g.id)}/${path}`, { method: 'POST', body }),
        ),
    });
  const buttons = [];
  if (ACTIVE.has(g.status)) {
    buttons.push(act('complete', 'Complete', 'Complete', 'complete', {}, 'secondary'));
    buttons.push(act('fail-refund', 'Fail + refund', 'Fail with refund', 'fail', { refund: 'full' }, 'danger'));
    buttons.push(act('fail', 'Fail, keep charge', 'Fail without refund', 'fail', { refund: 'none' }, 'secondary'));
  } else if (g.net_credits > 0) {
    buttons.push(act('refund', 'Refund', 'Refund', 'refund', {}, 'secondary'));
  }
  return buttons.length ? el('div', { className: 'actions' }, buttons) : el('span', { className: 'muted', text: '–' });
}

function buildRow() {
  const cells = ['created', 'id', 'model', 'prompt', 'state', 'credits', 'billing', 'outputs', 'actions'].map((name) =>
    el('td', { dataset: { cell: name } }),
  );
  cells[5].className = 'num';
  cells[1].append(el('code', {}), el('div', { className: 'muted small' }));
  cells[3].append(el('div', { className: 'prompt' }));
  cells[4].append(el('span', { className: 'badge' }), el('div', { className: 'error-text small' }));
  return el('tr', {}, cells);
}

export function generationsView({ body, count, filter, announce, run }) {
  const lastStatus = new Map();

  function update(row, g) {
    const cell = (name) => row.querySelector(`[data-cell="${name}"]`);
    row.dataset.status = g.status;
    setText(cell('created'), clockTime(g.created_at));
    cell('created').title = g.created_at;
    setText(cell('id').firstChild, g.id);
    setText(cell('id').lastChild, g.account_id ?? '');
    setText(cell('model'), g.model_slug);
    setText(cell('prompt').firstChild, g.prompt);
    cell('prompt').firstChild.title = g.prompt;
    const badge = cell('state').firstChild;
    setText(badge, g.status);
    badge.className = `badge state-${g.status}`;
    setText(cell('state').lastChild, g.error ? `${g.error.code}: ${g.error.message}` : '');
    setText(
      cell('credits'),
      g.refunded_credits
        ? `${credits(g.charged_credits)} − ${credits(g.refunded_credits)} = ${credits(g.net_credits)}`
        : credits(g.charged_credits),
    );
    setText(cell('billing'), g.billing_status);
    renderOutputs(cell('outputs'), g);
    renderOnce(cell('actions'), `${g.status}:${g.net_credits}`, () => actionButtons(g, run));
  }

  return async function refresh() {
    const query = filter.value ? `&status=${encodeURIComponent(filter.value)}` : '';
    const { generations } = await api(`/_emulator/generations?limit=50${query}`);
    for (const g of generations) {
      const before = lastStatus.get(g.id);
      if (before && before !== g.status)
        announce(
          `${g.id} is ${g.status}${g.status === 'failed' && g.billing_status !== 'charged' ? `, ${g.billing_status}` : ''}.`,
        );
      lastStatus.set(g.id, g.status);
    }
    setText(count, `(${generations.length}${generations.length === 50 ? '+' : ''})`);
    if (generations.length === 0)
      return emptyRow(
        body,
        9,
        filter.value
          ? `No ${filter.value} generations.`
          : 'No generations yet. Submit one with POST /v1/media/generations; it shows up here.',
      );
    syncRows(body, generations, (g) => g.id, buildRow, update);
  };
}
