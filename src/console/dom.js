// Small DOM helpers: build elements, change text only when it differs, keep keyed children (and their players) in place.

/** el('td', { className: 'num', text: '12' }, child, ...) */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'text') node.textContent = value;
    else if (key === 'className') node.className = value;
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else if (key in node && typeof value !== 'string') node[key] = value;
    else node.setAttribute(key, value === true ? '' : value);
  }
  for (const child of children.flat()) if (child !== undefined && child !== null && child !== false) node.append(child);
  return node;
}

/** Writing the same text again would make screen readers and selection jump; only real changes touch the DOM. */
export function setText(node, text) {
  const value = String(text ?? '');
  if (node.textContent !== value) node.textContent = value;
}

/**
 * Makes `container` show `items` in order, keyed by `keyOf`. Children are built once and updated in place, and only
 * moved when the order changes: moving a <video> out of the document pauses it and loses the user's focus.
 */
export function syncChildren(container, items, keyOf, build, update) {
  const existing = new Map([...container.children].filter((c) => c.dataset.key).map((c) => [c.dataset.key, c]));
  for (const child of [...container.children]) if (!child.dataset.key) child.remove();
  let previous = null;
  for (const item of items) {
    const key = String(keyOf(item));
    let node = existing.get(key);
    if (node) existing.delete(key);
    else {
      node = build(item);
      node.dataset.key = key;
    }
    update(node, item);
    const expected = previous ? previous.nextElementSibling : container.firstElementChild;
    if (expected !== node) container.insertBefore(node, expected);
    previous = node;
  }
  for (const node of existing.values()) node.remove();
}

/** Replaces a node's content only when `signature` changes, so live refreshes leave focus and players alone. */
export function renderOnce(node, signature, render) {
  if (node.dataset.sig === signature) return;
  const focused = node.contains(document.activeElement) ? document.activeElement?.dataset?.action : undefined;
  node.dataset.sig = signature;
  node.replaceChildren(...[render()].flat().filter(Boolean));
  if (focused) node.querySelector(`[data-action="${focused}"]`)?.focus();
}

export function emptyNote(container, text) {
  container.replaceChildren(el('p', { className: 'empty muted', text }));
}

export const credits = (n) => (typeof n === 'number' ? n.toLocaleString('en-US') : '–');

const pad = (n) => String(n).padStart(2, '0');

/** 2026-11-22 05:36:43 in UTC, the emulator's zone: unambiguous in every locale, and sortable by eye. */
export function dateTime(iso) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso ?? '–';
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${clockTime(iso)}`;
}

export function clockTime(iso) {
  if (!iso) return '–';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** "in 4 s", "3 min ago": a distance on the emulator clock. */
export function relative(iso, nowIso) {
  const ms = Date.parse(iso) - Date.parse(nowIso);
  if (!Number.isFinite(ms)) return '';
  const abs = Math.abs(ms);
  const text =
    abs < 1000
      ? `${abs} ms`
      : abs < 120_000
        ? `${Math.round(abs / 1000)} s`
        : abs < 7_200_000
          ? `${Math.round(abs / 60_000)} min`
          : `${Math.round(abs / 3_600_000)} h`;
  return ms >= 0 ? `in ${text}` : `${text} ago`;
}

/** A button that copies `text` and says so beside itself. */
export function copyButton(text, label, className = 'secondary small-button') {
  const button = el('button', { type: 'button', className, text: 'Copy', 'aria-label': label });
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(typeof text === 'function' ? text() : text);
      button.textContent = 'Copied';
    } catch {
      button.textContent = 'Copy failed';
    }
    setTimeout(() => (button.textContent = 'Copy'), 1500);
  });
  return button;
}

export function badge(text, kind) {
  return el('span', { className: `badge ${kind}`, text });
}
