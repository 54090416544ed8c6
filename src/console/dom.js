// Small DOM helpers: build elements, change text only when it differs, and keep table rows (and their players) in place.

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
 * Makes tbody show `items` in order, keyed by `keyOf`. Rows are built once and updated in place, and only moved when
 * the order really changes, because moving a <video> out of the document pauses it and loses the user's focus.
 */
export function syncRows(tbody, items, keyOf, build, update) {
  const existing = new Map([...tbody.rows].filter((r) => r.dataset.key).map((r) => [r.dataset.key, r]));
  for (const row of [...tbody.rows]) if (!row.dataset.key) row.remove();
  let previous = null;
  for (const item of items) {
    const key = String(keyOf(item));
    let row = existing.get(key);
    if (row) existing.delete(key);
    else {
      row = build(item);
      row.dataset.key = key;
    }
    update(row, item);
    const expected = previous ? previous.nextElementSibling : tbody.firstElementChild;
    if (expected !== row) tbody.insertBefore(row, expected);
    previous = row;
  }
  for (const row of existing.values()) row.remove();
}

/** A single full-width row saying why the table is empty. */
export function emptyRow(tbody, columns, text) {
  tbody.replaceChildren(el('tr', {}, el('td', { colSpan: columns, className: 'empty', text })));
}

/**
 * Replaces a cell's content when its signature changes, and puts the keyboard focus back on the button that had it
 * (matched by data-action), so a live update never throws a keyboard user out of the table.
 */
export function renderOnce(cell, signature, render) {
  if (cell.dataset.sig === signature) return;
  const focused = cell.contains(document.activeElement) ? document.activeElement?.dataset?.action : undefined;
  cell.dataset.sig = signature;
  cell.replaceChildren(...[render()].flat().filter(Boolean));
  if (focused) (cell.querySelector(`[data-action="${focused}"]`) ?? cell.querySelector('button'))?.focus();
}

export const credits = (n) => (typeof n === 'number' ? n.toLocaleString('en-US') : '–');

const pad = (n) => String(n).padStart(2, '0');

/** 2026-11-22 05:36:43 in local time: unambiguous in every locale, and sortable by eye. */
export function dateTime(iso) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso ?? '–';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

export function clockTime(iso) {
  if (!iso) return '–';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleTimeString('en-GB', { hour12: false });
}
