// Output players and thumbnails: a broken link is shown as a 403/404 badge and is never fetched again on its own.
import { el } from './dom.js';

const BROKEN = {
  expired: {
    status: '403',
    label: 'expired',
    hint: 'The signed link has expired: a client reads the generation again for a fresh one.',
  },
  missing: {
    status: '404',
    label: 'missing',
    hint: 'The file is gone (missing-outputs, or what it was rendered from is gone): the link answers 404 output_not_found.',
  },
  failed: {
    status: '!',
    label: 'did not load',
    hint: 'The browser could not load this link. It is not retried; reload it by hand.',
  },
};

/** The badge that stands in for a player whose link cannot work. */
export function brokenBadge(kind, { thumbnail = false, onReload } = {}) {
  const b = BROKEN[kind];
  return el(
    'div',
    { className: `broken broken-${kind}${thumbnail ? ' thumb' : ''}`, title: b.hint, dataset: { broken: kind } },
    el('span', { className: 'broken-status', text: b.status }),
    el('span', { className: 'broken-label', text: b.label }),
    !thumbnail && el('span', { className: 'broken-hint small', text: b.hint }),
    !thumbnail &&
      onReload &&
      el('button', { type: 'button', className: 'secondary small-button', text: 'Load again', onclick: onReload }),
  );
}

function mediaElement(g, o, thumbnail) {
  const label = `Output ${o.index + 1} of ${g.id}`;
  const kind = (o.mime_type ?? '').split('/')[0];
  if (kind === 'video')
    return thumbnail
      ? el('video', { src: `${o.url}#t=0.5`, preload: 'metadata', muted: true, playsInline: true, 'aria-label': label })
      : el('video', { src: o.url, controls: true, preload: 'metadata', playsInline: true, 'aria-label': label });
  if (kind === 'image') return el('img', { src: o.url, alt: label, loading: 'lazy' });
  if (kind === 'audio')
    return thumbnail
      ? el('span', { className: 'thumb-audio', text: '♪', 'aria-label': label })
      : el('audio', { src: o.url, controls: true, preload: 'metadata', 'aria-label': label });
  return el('a', { href: o.url, download: '', text: `Download ${o.format}`, 'aria-label': `Download ${label}` });
}

/**
 * A player (or thumbnail) for one output. `state` is what the emulator says the link answers; only `ok` links are
 * loaded. A load error swaps the player for a badge once: the element is removed, so the browser cannot retry it.
 */
export function outputPreview(g, o, state, { thumbnail = false } = {}) {
  const box = el('div', { className: thumbnail ? 'thumb-box' : 'player-box', dataset: { output: String(o.index) } });
  const show = () => {
    if (state !== 'ok') return box.replaceChildren(brokenBadge(state, { thumbnail }));
    const media = mediaElement(g, o, thumbnail);
    media.addEventListener('error', () => box.replaceChildren(brokenBadge('failed', { thumbnail, onReload: show })), {
      once: true,
    });
    box.replaceChildren(media);
  };
  show();
  return box;
}
