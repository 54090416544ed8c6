// /_emulator/summary and /_emulator/catalogue, the views the console reads, declared once (registry/operation.ts).
import { defineOperation } from './registry/operation.js';
import { catalogueSchema, summarySchema } from './openapi/control-console.js';
import { summaryQuery } from './inputs.js';
import { catalogueView, summary } from './summary.js';

export const SUMMARY_API = {
  summary: defineOperation({
    method: 'get',
    path: '/_emulator/summary',
    summary: 'Everything the console shows, in one answer',
    description:
      'Clock, wallets, keys, fault rules, scenario, a filtered page of generations (`status`, `model`, `q` searches id and prompt as plain text, `offset`, `limit` up to 100), the newest journal entries and the next scheduled moves.',
    query: summaryQuery,
    input: 'summary query',
    answer: summarySchema,
    handle: (deps, { query }) => summary(deps, query),
  }),
  catalogue: defineOperation({
    method: 'get',
    path: '/_emulator/catalogue',
    summary: 'Models, failure codes, fault actions, prompt marker examples and scenarios with their steps',
    answer: catalogueSchema,
    errors: ['invalid_scenario'],
    handle: (deps) => catalogueView(deps),
  }),
};
