// Scenarios (description, steps and rules shown before loading) and the prompt-marker cheat sheet.
import { control } from './api.js';
import { copyButton, el, renderOnce } from './dom.js';

const $ = (id) => document.getElementById(id);

const stepText = (s) =>
  Object.entries(s)
    .map(([k, v]) => (k === 'op' ? v : `${k} ${typeof v === 'object' ? JSON.stringify(v) : v}`))
    .join(' · ');
const ruleText = (f) =>
  f.description ?? `${f.action?.type} on ${f.match?.route ?? 'any route'}${f.times ? `, ${f.times}×` : ''}`;

export function scenariosPanel({ act }) {
  return {
    setCatalogue(catalogue) {
      $('scenario-list').replaceChildren(
        ...catalogue.scenarios.map((s) => {
          const message = el('p', { className: 'note', role: 'status' });
          return el(
            'details',
            { className: 'scenario', dataset: { scenario: s.name } },
            el(
              'summary',
              {},
              el('strong', { text: s.name }),
              el('span', { className: 'muted small', text: ` ${s.description ?? ''}` }),
            ),
            s.expect && el('p', { className: 'small', text: `Expect: ${s.expect}` }),
            el('h4', { text: `Steps (${s.steps.length})` }),
            s.steps.length
              ? el(
                  'ol',
                  { className: 'small' },
                  s.steps.map((st) => el('li', { text: stepText(st) })),
                )
              : el('p', { className: 'muted small', text: 'None.' }),
            el('h4', { text: `Fault rules (${s.faults.length})` }),
            s.faults.length
              ? el(
                  'ol',
                  { className: 'small' },
                  s.faults.map((f) => el('li', { text: ruleText(f) })),
                )
              : el('p', { className: 'muted small', text: 'None.' }),
            el('button', {
              type: 'button',
              dataset: { action: 'load' },
              text: `Load ${s.name}`,
              onclick: () => act(message, `Scenario ${s.name} loaded`, () => control.scenario.load(s.name)),
            }),
            message,
          );
        }),
      );
    },
    render(summary) {
      const active = summary.scenario;
      renderOnce($('scenario-active'), JSON.stringify(active), () => {
        if (!active)
          return el('p', {
            className: 'muted',
            text: 'No scenario loaded. Open one below to see what it does before loading it.',
          });
        const spent = active.faults.filter((f) => f.spent).length;
        const message = el('p', { className: 'note', role: 'status' });
        return [
          el(
            'p',
            {},
            'Active: ',
            el('strong', { text: active.name }),
            ` · ${spent} of ${active.faults.length} rules spent${active.complete ? ' · played out' : ''}`,
          ),
          el('button', {
            type: 'button',
            className: 'secondary',
            text: 'Stop scenario',
            onclick: () => act(message, 'Scenario stopped', () => control.scenario.unload()),
          }),
          message,
        ];
      });
    },
  };
}

export function markersPanel() {
  return {
    setCatalogue(catalogue) {
      $('marker-list').replaceChildren(
        ...catalogue.markers.map((m) =>
          el(
            'li',
            { className: 'marker' },
            el('code', { text: m.marker }),
            el('span', { className: 'small', text: m.effect }),
            copyButton(m.marker, `Copy ${m.marker}`),
          ),
        ),
      );
    },
  };
}
