// The generations list: search, state and model filters, paging, and one compact row (a card on a phone) per generation.
import { badge, clockTime, credits, el, emptyNote, renderOnce, setText, syncChildren } from './dom.js';
import { outputPreview } from './media.js';

const $ = (id) => document.getElementById(id);
const PAGE = 25;
const STATES = ['', 'pending', 'running', 'completed', 'failed'];

function buildRow() {
  const link = el('a', { className: 'gen-link' });
  return el(
    'div',
    { className: 'gen-row', role: 'listitem' },
    el('div', { className: 'gen-thumb' }),
    el(
      'div',
      { className: 'gen-main' },
      link,
      el('div', { className: 'gen-prompt' }),
      el('div', { className: 'gen-error small' }),
    ),
    el('div', { className: 'gen-model muted small' }),
    el('div', { className: 'gen-state' }),
    el('div', { className: 'gen-credits num' }),
    el('time', { className: 'gen-time muted small' }),
  );
}

function updateRow(row, g) {
  const part = (name) => row.querySelector(`.gen-${name}`);
  row.dataset.status = g.status;
  const link = part('link');
  link.href = `#/generation/${encodeURIComponent(g.id)}`;
  setText(link, g.id);
  link.setAttribute('aria-label', `Open ${g.id}, ${g.status}`);
  setText(part('prompt'), g.prompt || '(no prompt)');
  part('prompt').title = g.prompt;
  setText(part('error'), g.error ? g.error.code : '');
  setText(part('model'), g.model_slug);
  renderOnce(part('state'), `${g.status}:${g.billing_status}`, () => [
    badge(g.status, `state-${g.status}`),
    g.billing_status !== 'charged'
      ? el('span', { className: 'muted small', text: g.billing_status.replace('_', ' ') })
      : null,
  ]);
  setText(
    part('credits'),
    g.refunded_credits ? `${credits(g.net_credits)} of ${credits(g.charged_credits)}` : credits(g.charged_credits),
  );
  part('credits').title = `charged ${g.charged_credits}, refunded ${g.refunded_credits}`;
  const time = part('time');
  setText(time, clockTime(g.created_at));
  time.dateTime = g.created_at;
  time.title = `created ${g.created_at} (emulator clock)`;
  const first = g.outputs?.[0];
  renderOnce(part('thumb'), `${g.status}:${g.output_state}:${first ? first.index : ''}`, () =>
    first && g.output_state
      ? outputPreview(g, first, g.output_state, { thumbnail: true })
      : el('span', { className: `thumb-placeholder state-${g.status}`, 'aria-hidden': 'true' }),
  );
}

export function generationsList({ announce }) {
  const filters = { status: '', model: '', q: '', offset: 0 };
  const lastStatus = new Map();
  let total = 0;
  let timer;

  const changed = () => {
    filters.offset = 0;
    document.body.dispatchEvent(new Event('console:refresh'));
  };
  $('generations-search').addEventListener('input', () => {
    clearTimeout(timer);
    // Wait for a pause in typing: one request for a word, not one per letter.
    timer = setTimeout(() => {
      filters.q = $('generations-search').value;
      changed();
    }, 250);
  });
  $('generations-tools').addEventListener('submit', (event) => event.preventDefault());
  $('generations-model').addEventListener('change', () => {
    filters.model = $('generations-model').value;
    changed();
  });
  const chips = STATES.map((state) =>
    el('button', {
      type: 'button',
      className: 'chip',
      // Named before the first summary counts them, so a console that cannot read yet shows what they are.
      text: state || 'all',
      dataset: { state },
      'aria-pressed': String(state === ''),
      onclick: () => {
        filters.status = state;
        for (const c of chips) c.setAttribute('aria-pressed', String(c.dataset.state === state));
        changed();
      },
    }),
  );
  $('status-filters').replaceChildren(...chips);
  $('page-prev').addEventListener('click', () => {
    filters.offset = Math.max(0, filters.offset - PAGE);
    document.body.dispatchEvent(new Event('console:refresh'));
  });
  $('page-next').addEventListener('click', () => {
    if (filters.offset + PAGE < total) filters.offset += PAGE;
    document.body.dispatchEvent(new Event('console:refresh'));
  });

  return {
    query() {
      const query = { offset: filters.offset, limit: PAGE };
      for (const key of ['status', 'model', 'q']) if (filters[key]) query[key] = filters[key];
      return query;
    },
    setCatalogue(catalogue) {
      $('generations-model').replaceChildren(
        el('option', { value: '', text: 'All models' }),
        ...catalogue.models.map((m) => el('option', { value: m.slug, text: m.slug })),
      );
    },
    render(summary) {
      const page = summary.generations;
      total = page.total;
      const sum = Object.values(page.counts).reduce((a, b) => a + b, 0);
      for (const chip of chips) {
        const state = chip.dataset.state;
        setText(chip, `${state || 'all'} ${state ? page.counts[state] : sum}`);
      }
      setText($('generations-count'), `(${page.all})`);
      for (const g of page.items) {
        const before = lastStatus.get(g.id);
        if (before && before !== g.status) announce(`${g.id} is ${g.status}.`);
        lastStatus.set(g.id, g.status);
      }
      const list = $('generations-list');
      if (page.items.length === 0) {
        const filtered = filters.status || filters.model || filters.q;
        emptyNote(
          list,
          filtered
            ? 'Nothing matches these filters.'
            : 'No generations yet. Submit one from your app (POST /v1/media/generations); it shows up here at once.',
        );
      } else syncChildren(list, page.items, (g) => g.id, buildRow, updateRow);
      const from = page.total ? page.offset + 1 : 0;
      const to = Math.min(page.offset + page.items.length, page.total);
      setText($('page-info'), `${from}–${to} of ${page.total}`);
      $('page-prev').disabled = page.offset === 0;
      $('page-next').disabled = page.offset + page.limit >= page.total;
    },
  };
}
