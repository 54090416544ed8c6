// --help, written from the option table: each flag, then the variables that have no flag.
import { OPTION_TABLE } from './option-table.js';

const WIDTH = 120;
const COLUMN = 27;

/** `label` padded to the column, then `text` wrapped at WIDTH with continuation lines under the column. */
function row(label: string, text: string): string {
  const lines: string[] = [];
  let line = `  ${label}`.padEnd(COLUMN);
  if (line.length > COLUMN) {
    lines.push(line.trimEnd());
    line = ''.padEnd(COLUMN);
  }
  for (const word of text.split(' ')) {
    if (line.trim() !== '' && line.length + word.length + 1 > WIDTH && line.length > COLUMN) {
      lines.push(line.trimEnd());
      line = ''.padEnd(COLUMN);
    }
    line += line.length === COLUMN ? word : ` ${word}`;
  }
  lines.push(line.trimEnd());
  return lines.join('\n');
}

/** "port (default 8787)" and PORT: "port (default 8787; env PORT)". */
function withVariables(help: string, names: string[]): string {
  if (!names.length) return help;
  const env = `env ${names.join(', ')}`;
  return help.endsWith(')') ? `${help.slice(0, -1)}; ${env})` : `${help} (${env})`;
}

function optionRows(): string[] {
  const rows: string[] = [];
  for (const entry of OPTION_TABLE) {
    const variables = entry.env ?? [];
    for (const variable of variables) if (variable.help) rows.push(row(variable.name, variable.help));
    if (!entry.flag || !entry.help) continue;
    const label = `--${entry.flag.name}${entry.flag.arg ? ` ${entry.flag.arg}` : ''}`;
    const names = variables.filter((v) => !v.help).map((v) => v.shown ?? v.name);
    rows.push(row(label, withVariables(entry.help, names)));
  }
  return rows;
}

export function helpText(): string {
  return `media-gen-emulator: a local emulator of the media-generation API

Usage: media-gen-emulator [options]     (or: npm start -- [options])
       media-gen-emulator verify --help   (compare with the real service: docs/verify.md)

${row('--config FILE', 'JSON file of options, keys as in docs/api.md#configuration (env MEDIA_EMULATOR_CONFIG)')}
${optionRows().join('\n')}
${row('--version', 'print the version and exit')}
${row('-h, --help', 'print this help and exit')}
`;
}
