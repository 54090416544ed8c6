// The sandbox switcher: which world this tab shows and drives, the default one or a sandbox (docs/sandboxes.md).
import { control, sandboxChoice } from './api.js';

const label = (sandbox) => (sandbox.label ? `${sandbox.label} (${sandbox.id})` : sandbox.id);

/** Fills `select` with the live sandboxes; choosing one reloads the console in that world. */
export async function sandboxSwitcher(select) {
  const fill = async () => {
    let sandboxes = [];
    let listed = false;
    try {
      sandboxes = await control.sandboxes();
      listed = true;
    } catch {
      // A sandbox's own token may not list the others: the switcher shows what it can.
    }
    const chosen = sandboxChoice.get();
    // A deleted or expired sandbox: back to the default world rather than a console of refusals.
    if (chosen && listed && !sandboxes.some((s) => s.id === chosen)) {
      sandboxChoice.set('');
      location.reload();
      return;
    }
    const options = [new Option('default', ''), ...sandboxes.map((s) => new Option(label(s), s.id))];
    if (chosen && !sandboxes.some((s) => s.id === chosen)) options.push(new Option(chosen, chosen));
    select.replaceChildren(...options);
    select.value = chosen;
  };
  select.addEventListener('focus', fill);
  select.addEventListener('change', () => {
    sandboxChoice.set(select.value);
    location.reload();
  });
  await fill();
}
