// The API keys panel: every key with its secret (copyable), create one with a scope and ceiling, revoke one.
import { control } from './api.js';
import { clockTime, copyButton, el, renderOnce, syncChildren } from './dom.js';
import { syncOptions } from './panels.js';

const $ = (id) => document.getElementById(id);

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
      const key = await control.createKey(body);
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
                  onclick: () => act($('key-message'), `Key ${k.id} revoked`, () => control.revokeKey(k.id)),
                }),
          );
        },
      );
    },
  };
}
