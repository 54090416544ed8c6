// The detail view of one generation (#/generation/<id>): outputs, timeline, actions, ledger and the request behind it.
import { control, describe } from './api.js';
import { badge, clockTime, copyButton, credits, dateTime, el, relative, renderOnce, setText } from './dom.js';
import { failForm, refundForm } from './detail-forms.js';
import { outputPreview } from './media.js';

const $ = (id) => document.getElementById(id);

function skeleton() {
  return [
    el('p', {}, el('a', { href: '#generations', className: 'back', text: '← All generations' })),
    el(
      'div',
      { className: 'detail-head' },
      el('h2', { id: 'detail-heading' }),
      el('div', { className: 'detail-badges' }),
    ),
    el('p', { className: 'detail-prompt' }),
    el('p', { className: 'detail-meta muted small' }),
    el('p', { className: 'detail-error error-text' }),
    el(
      'div',
      { className: 'detail-grid' },
      el('div', { className: 'detail-outputs' }),
      el(
        'div',
        { className: 'detail-side' },
        el('h3', { text: 'Timeline (emulator clock)' }),
        el('ol', { className: 'timeline detail-timeline' }),
        el('div', { className: 'detail-actions' }),
      ),
    ),
    el('h3', { text: 'Ledger' }),
    el('div', { className: 'detail-ledger' }),
    el('h3', { text: 'The request that created it' }),
    el('div', { className: 'detail-request' }),
  ];
}

function timelineItems(d, now) {
  const items = d.timeline.map((t) =>
    el(
      'li',
      { className: 'done' },
      badge(t.status, `state-${t.status}`),
      el('time', { dateTime: t.at, title: t.at, text: `${dateTime(t.at)}` }),
    ),
  );
  if (d.next)
    items.push(
      el(
        'li',
        { className: 'planned' },
        badge(`${d.next.status} next`, 'planned'),
        el('time', {
          dateTime: d.next.at,
          title: d.next.at,
          text: `${clockTime(d.next.at)} · ${relative(d.next.at, now)}`,
        }),
      ),
    );
  else if (d.generation.status === 'running' && d.plan.stall)
    items.push(
      el(
        'li',
        { className: 'planned' },
        el('span', { className: 'muted', text: 'Stalled: stays running until completed or failed here.' }),
      ),
    );
  return items;
}

function ledgerTable(entries) {
  if (!entries.length) return el('p', { className: 'muted', text: 'No ledger entries.' });
  return el(
    'table',
    { className: 'compact' },
    el(
      'thead',
      {},
      el('tr', {}, ...['Entry', 'Type', 'Credits', 'At'].map((h) => el('th', { scope: 'col', text: h }))),
    ),
    el(
      'tbody',
      {},
      entries.map((e) =>
        el(
          'tr',
          {},
          el('td', {}, el('code', { text: e.id })),
          el('td', { text: e.type }),
          el('td', { className: 'num', text: `${e.type === 'charge' ? '−' : '+'}${credits(Math.abs(e.amount))}` }),
          el('td', { text: dateTime(e.at) }),
        ),
      ),
    ),
  );
}

function requestSummary(r) {
  if (!r) return el('p', { className: 'muted', text: 'Not in the journal (cleared, or created before it was).' });
  return el(
    'p',
    { className: 'request-line' },
    el('code', { text: `${r.method} ${r.path}` }),
    badge(String(r.status), r.status >= 400 || r.status === 0 ? 'state-failed' : 'state-completed'),
    el('span', {
      className: 'muted small',
      text: ` ${r.latency_ms} ms · ${dateTime(r.at)}${r.idempotency_key ? ` · Idempotency-Key ${r.idempotency_key}` : ''}`,
    }),
    el('a', { href: `#requests`, text: 'Inspect', dataset: { journalId: String(r.id) }, className: 'inspect-link' }),
  );
}

export function detailView(context) {
  const section = $('detail');
  let openId = null;
  let catalogue = { failure_codes: [] };

  function actions(d, message) {
    const g = d.generation;
    const active = g.status === 'pending' || g.status === 'running';
    const out = [];
    if (active)
      out.push(
        el('button', {
          type: 'button',
          dataset: { action: 'complete' },
          text: 'Complete now',
          onclick: () => context.act(message, `${g.id} completed`, () => control.complete(g.id)),
        }),
        failForm(g, catalogue, message, context),
      );
    if (g.status === 'completed')
      out.push(
        el('button', {
          type: 'button',
          className: 'secondary',
          dataset: { action: 'expire' },
          text: 'Expire links now',
          onclick: () =>
            context.act(message, 'Links expired', async () => {
              await control.expireLinks(g.id);
              return 'clients get 403 url_expired until they read the generation again';
            }),
        }),
      );
    if (!active && g.net_credits > 0) out.push(refundForm(g, message, context));
    if (!out.length)
      out.push(el('p', { className: 'muted small', text: 'Nothing left to do: final and fully refunded.' }));
    return out;
  }

  function render(d, now) {
    const g = d.generation;
    if (!section.querySelector('.detail-grid'))
      section.replaceChildren(...skeleton(), el('p', { id: 'detail-message', className: 'note', role: 'status' }));
    const q = (s) => section.querySelector(s);
    setText(q('#detail-heading'), g.id);
    renderOnce(q('.detail-badges'), `${g.status}:${g.billing_status}`, () => [
      badge(g.status, `state-${g.status}`),
      badge(g.billing_status.replace('_', ' '), 'plain'),
    ]);
    setText(q('.detail-prompt'), g.prompt || '(no prompt)');
    setText(
      q('.detail-meta'),
      `${g.model_slug} · ${g.kind} · key ${g.api_key_id} · ${g.account_id} · charged ${credits(g.charged_credits)}, refunded ${credits(g.refunded_credits)}, net ${credits(g.net_credits)}`,
    );
    setText(q('.detail-error'), g.error ? `${g.error.code}: ${g.error.message}` : '');
    renderOnce(q('.detail-outputs'), `${g.status}:${d.links.map((l) => `${l.index}${l.state}`).join()}`, () =>
      d.links.length
        ? d.links.map((l) => {
            const o = g.outputs.find((x) => x.index === l.index);
            return el(
              'figure',
              { className: 'output-large' },
              outputPreview(g, o, l.state),
              el(
                'figcaption',
                {},
                el(
                  'div',
                  { className: 'link-row' },
                  el('code', { className: 'signed-url', text: l.url }),
                  copyButton(l.url, `Copy the signed URL of output ${l.index + 1}`),
                ),
                el('div', { className: 'muted small link-expiry', dataset: { expires: l.expires_at } }),
              ),
            );
          })
        : el('p', {
            className: 'muted',
            text: g.status === 'failed' ? 'No outputs: it failed.' : 'Outputs appear when it completes.',
          }),
    );
    for (const expiry of section.querySelectorAll('.link-expiry'))
      setText(
        expiry,
        `Link expires ${dateTime(expiry.dataset.expires)} (${relative(expiry.dataset.expires, now)} on the emulator clock)`,
      );
    renderOnce(q('.detail-timeline'), JSON.stringify([d.timeline, d.next, now.slice(0, 19)]), () =>
      timelineItems(d, now),
    );
    renderOnce(q('.detail-actions'), `${g.status}:${g.net_credits}`, () => actions(d, q('#detail-message')));
    renderOnce(q('.detail-ledger'), JSON.stringify(d.ledger.map((e) => e.id)), () => ledgerTable(d.ledger));
    renderOnce(q('.detail-request'), String(d.request?.id ?? ''), () => requestSummary(d.request));
  }

  section.addEventListener('click', (event) => {
    const link = event.target.closest('[data-journal-id]');
    if (link)
      document.body.dispatchEvent(new CustomEvent('console:inspect', { detail: Number(link.dataset.journalId) }));
  });

  return {
    setCatalogue(c) {
      catalogue = c;
    },
    open(id) {
      if (id !== openId) section.replaceChildren();
      openId = id;
    },
    async render(summary) {
      if (!openId) return;
      try {
        render(await control.detail(openId), summary.clock.now);
      } catch (error) {
        section.replaceChildren(
          el('p', {}, el('a', { href: '#generations', className: 'back', text: '← All generations' })),
          el('h2', { id: 'detail-heading', text: openId }),
          el('p', { className: 'note error', text: `Could not load ${openId}: ${describe(error)}` }),
        );
      }
    },
  };
}
