// docs/api.md's "Request limits" table says what the served document (docs/openapi.json, kept equal to it) enforces.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { JSON_BODY_LIMIT_TEXT } from '../../src/http/routes/limits.js';

type Schema = {
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  maxProperties?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  anyOf?: Schema[];
};
interface Parameter {
  name: string;
  schema: Schema;
}
const doc = JSON.parse(readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, { parameters?: Parameter[] }>>;
  components: { schemas: { GenerationRequest: { properties: Record<string, Schema> } } };
};
const body = doc.components.schemas.GenerationRequest.properties;
const bodyMember = (name: string): Schema => body[name]!.anyOf?.[0] ?? body[name]!;
const parameter = (method: string, name: string): Schema =>
  doc.paths['/v1/media/generations']![method]!.parameters!.find((p) => p.name.toLowerCase() === name)!.schema;

/** The table's rows by their first cell, its second cell (the limit) as text. */
function documentedLimits(): Map<string, string> {
  const api = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
  const section = api.split('### Request limits')[1]?.split('\n### ')[0];
  if (!section) throw new Error('docs/api.md has no "### Request limits" section');
  const rows = section.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| item'));
  return new Map(rows.map((line) => line.split('|').map((cell) => cell.trim())).map((cells) => [cells[1]!, cells[2]!]));
}

const n = (value: number | undefined) => (value ?? Number.NaN).toLocaleString('en-US');

describe('docs/api.md, Request limits', () => {
  const limits = documentedLimits();
  const row = (item: string) => {
    const found = limits.get(item);
    if (found === undefined) throw new Error(`no row "${item}" in docs/api.md's Request limits`);
    return found;
  };

  it('names the bounds the document enforces on a submission', () => {
    const key = parameter('post', 'idempotency-key');
    expect(row('`Idempotency-Key` header')).toContain(`${key.minLength} to ${key.maxLength} characters`);
    const slug = bodyMember('model_slug');
    expect(row('`model_slug`')).toContain(
      `${slug.minLength} to ${slug.maxLength} characters, pattern \`${slug.pattern}\``,
    );
    expect(row('`prompt`')).toContain(`${n(bodyMember('prompt').maxLength)} characters (schema)`);
    expect(row('`params`')).toBe(`${bodyMember('params').maxProperties} entries`);
    expect(row('`texts`')).toBe(`${bodyMember('texts').maxProperties} entries`);
    expect(row('`refs`')).toContain(`${bodyMember('refs').maxItems} items (schema)`);
    expect(row('`ref_slots`')).toBe(`${bodyMember('ref_slots').maxProperties} keys`);
    expect(row('`ref_roles`')).toBe(`${bodyMember('ref_roles').maxProperties} entries`);
    const credits = bodyMember('max_credits');
    expect(row('`max_credits`')).toBe(`an integer from ${n(credits.minimum)} to ${n(credits.maximum)}`);
    expect(row('JSON request body')).toContain(JSON_BODY_LIMIT_TEXT);
  });

  it('names the bounds of the list query', () => {
    const limit = parameter('get', 'limit');
    expect(row('list `limit`')).toContain(`${limit.minimum} to ${limit.maximum}`);
    expect(row('list `cursor`')).toBe(`${parameter('get', 'cursor').maxLength} characters`);
    expect(row('list `model_slug` filter')).toBe(`${parameter('get', 'model_slug').maxLength} characters`);
  });
});
