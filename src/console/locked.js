// Without a working admin token the console can read and change nothing: every control but the token form is disabled
// (and says so to assistive technology) until a summary comes back; then exactly those are enabled again.
const LOCKED = 'lockedByConsole';

export function lockControls(locked) {
  document.body.toggleAttribute('data-locked', locked);
  if (locked) {
    for (const control of document.querySelectorAll('button, input, select, textarea')) {
      // One the page had disabled itself (a pager at its end) stays as the next render leaves it.
      if (control.closest('#token-section') || control.disabled) continue;
      control.disabled = true;
      control.dataset[LOCKED] = '';
    }
    return;
  }
  for (const control of document.querySelectorAll('[data-locked-by-console]')) {
    control.disabled = false;
    delete control.dataset[LOCKED];
  }
}
