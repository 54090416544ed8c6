// Fault rules: an ordered list, first match wins; `after` skips early matches, `probability` draws from the seeded random, `times` spends a rule.
import * as z from 'zod';
import { LAST_INSTANT_MS } from '../../domain/durations.js';
import { PlaneError } from '../error-codes.js';
import { compileRegex, compileRoute, type Pattern } from './fault-patterns.js';
import { faultExists, faultLimitReached, MAX_FAULT_RULES, nextFreeId } from './fault-rule-ids.js';
import { faultRuleSchema, isGenerationAction, type ParsedFaultRule } from './fault-schema.js';
import { invalidInput, parseOrRefuse } from '../inputs.js';
import type { FaultFacts } from './fault-facts.js';
import { unreachable } from './fault-reach.js';

/** HTTP rules act when a request arrives; generation rules when a submission is accepted (POST /v1/media/generations). */
type FaultPhase = 'http' | 'generation';

/**
 * A rule as the store keeps it and the export writes it (checked again on restore): every member the views and
 * matching read, typed, so none can break them later.
 */
export const faultSnapshotSchema = z.object({
  id: z.string().min(1, 'must be the rule id'),
  /** `api`, or `scenario:<name>` for rules a scenario installed (unloading it removes them). */
  source: z.string().regex(/^(api|scenario:.+)$/, "must be 'api' or 'scenario:<name>'"),
  createdAt: z
    .number()
    .min(0, 'must be a time from 1970 to 9999 (ms since the epoch)')
    .max(LAST_INSTANT_MS, 'must be a time from 1970 to 9999 (ms since the epoch)'),
  /** The rule as it was given (without id), kept for display and export. */
  definition: z.record(z.string(), z.unknown()),
  enabled: z.boolean(),
  /** Requests that satisfied every matcher while the rule was live. */
  matched: z.int('must be a whole number').min(0),
  fired: z.int('must be a whole number').min(0),
});

/** A rule as the state export keeps it: the parsed form is rebuilt from the definition on restore. */
export type FaultSnapshot = z.output<typeof faultSnapshotSchema>;
export type FaultRule = FaultSnapshot & { parsed: ParsedFaultRule };

interface Compiled {
  route?: Pattern;
  prompt?: Pattern;
  idempotencyKey?: Pattern;
}

/**
 * Parses a rule; every problem names its field, e.g. `action.status: must be between 400 and 599`. A rule that no
 * request could ever fire (a route no operation has, a prompt on a download) is refused too, naming why.
 */
export function parseFaultRule(input: unknown, label = 'fault rule'): ParsedFaultRule {
  const parsed = parseOrRefuse('invalid_fault_rule', faultRuleSchema, input, label);
  const problems = unreachable(parsed);
  if (problems.length > 0) throw invalidInput('invalid_fault_rule', `The ${label}`, problems);
  return parsed;
}

export class FaultStore {
  private rules: FaultRule[] = [];
  private readonly compiled = new Map<string, Compiled>();
  private seq = 0;

  add(input: unknown, options: { now: number; source?: string; label?: string }): FaultRule {
    if (this.rules.length >= MAX_FAULT_RULES) throw faultLimitReached('This rule');
    const parsed = parseFaultRule(input, options.label);
    const held = (id: string) => this.rules.some((r) => r.id === id);
    let id = parsed.id;
    if (id === undefined) ({ id, seq: this.seq } = nextFreeId(this.seq, held));
    if (held(id)) throw faultExists(id);
    const { id: _omit, ...definition } = input as Record<string, unknown>;
    const rule: FaultRule = {
      id,
      source: options.source ?? 'api',
      createdAt: options.now,
      definition,
      parsed,
      enabled: parsed.enabled,
      matched: 0,
      fired: 0,
    };
    this.install(rule);
    return rule;
  }

  /** Compiles a rule's patterns once, when it goes in: matching then tests them on every request. */
  private install(rule: FaultRule) {
    const { match } = rule.parsed;
    this.compiled.set(rule.id, {
      route: match.route === undefined ? undefined : compileRoute(match.route),
      prompt: match.prompt === undefined ? undefined : compileRegex(match.prompt),
      idempotencyKey: match.idempotency_key?.startsWith('/') ? compileRegex(match.idempotency_key) : undefined,
    });
    this.rules.push(rule);
  }

  /** How many ids the store has generated: planIds (fault-rule-ids.ts) predicts the ids add() gives next from it. */
  get generatedIds(): number {
    return this.seq;
  }

  list(): FaultRule[] {
    return [...this.rules];
  }

  get isEmpty(): boolean {
    return this.rules.length === 0;
  }

  get(id: string): FaultRule {
    const rule = this.rules.find((r) => r.id === id);
    if (!rule)
      throw new PlaneError('fault_not_found', `No fault rule '${id}'. List the rules with GET /_emulator/faults.`);
    return rule;
  }

  remove(id: string) {
    this.get(id);
    this.removeWhere((r) => r.id === id);
  }

  removeWhere(predicate: (rule: FaultRule) => boolean) {
    for (const rule of this.rules.filter(predicate)) this.compiled.delete(rule.id);
    this.rules = this.rules.filter((r) => !predicate(r));
  }

  clear() {
    this.rules = [];
    this.compiled.clear();
  }

  setEnabled(id: string, enabled: boolean): FaultRule {
    const rule = this.get(id);
    rule.enabled = enabled;
    return rule;
  }

  /** Remaining firings, or null for a rule without `times`. */
  static remaining(rule: FaultRule): number | null {
    return rule.parsed.times === null ? null : Math.max(0, rule.parsed.times - rule.fired);
  }

  private live(rule: FaultRule, phase: FaultPhase): boolean {
    return (
      rule.enabled &&
      isGenerationAction(rule.parsed.action) === (phase === 'generation') &&
      FaultStore.remaining(rule) !== 0
    );
  }

  /** `skipBody` leaves model_slug and prompt out, to ask whether reading the body could make a difference. */
  private matches(rule: FaultRule, facts: FaultFacts, skipBody = false): boolean {
    const m = rule.parsed.match;
    const c = this.compiled.get(rule.id) ?? {};
    if (m.method ? m.method !== facts.method.toUpperCase() : facts.method === 'OPTIONS') return false;
    if (c.route && !c.route.test(facts.path)) return false;
    if (m.key_id !== undefined && m.key_id !== facts.keyId) return false;
    if (m.generation_id !== undefined && m.generation_id !== facts.generationId) return false;
    if (!skipBody) {
      if (m.model_slug !== undefined && m.model_slug !== facts.modelSlug) return false;
      if (c.prompt && (facts.prompt === undefined || !c.prompt.test(facts.prompt))) return false;
    }
    if (m.idempotency_key !== undefined) {
      if (facts.idempotencyKey === undefined) return false;
      if (c.idempotencyKey ? !c.idempotencyKey.test(facts.idempotencyKey) : m.idempotency_key !== facts.idempotencyKey)
        return false;
    }
    return true;
  }

  /**
   * The first live rule that matches, counted as fired; undefined when none does.
   * Counters move only here, so a rule skipped by `after` or by its probability falls through to the next one.
   */
  match(phase: FaultPhase, facts: FaultFacts, random: () => number): FaultRule | undefined {
    for (const rule of this.rules) {
      if (!this.live(rule, phase) || !this.matches(rule, facts)) continue;
      rule.matched += 1;
      if (rule.matched <= rule.parsed.after) continue;
      if (rule.parsed.probability < 1 && random() >= rule.parsed.probability) continue;
      rule.fired += 1;
      return rule;
    }
    return undefined;
  }

  /**
   * Why `rule` fired for these facts, in words for the request inspector: each matcher it has and what it saw, then
   * the counters (`after`, `times`, `probability`). Called right after match() chose the rule.
   */
  explain(rule: FaultRule, facts: FaultFacts): string {
    const m = rule.parsed.match;
    const parts: string[] = [];
    parts.push(m.method ? `method is ${m.method}` : 'any method');
    if (m.route !== undefined) parts.push(`path ${facts.path} matches route "${m.route}"`);
    if (m.key_id !== undefined) parts.push(`key_id is ${m.key_id}`);
    if (m.generation_id !== undefined) parts.push(`generation_id is ${m.generation_id}`);
    if (m.model_slug !== undefined) parts.push(`model_slug is ${m.model_slug}`);
    if (m.prompt !== undefined) parts.push(`prompt matches ${m.prompt}`);
    if (m.idempotency_key !== undefined) parts.push(`Idempotency-Key matches ${m.idempotency_key}`);
    const p = rule.parsed;
    parts.push(p.after > 0 ? `match ${rule.matched}, after skipping the first ${p.after}` : `match ${rule.matched}`);
    if (p.times !== null) parts.push(`firing ${rule.fired} of ${p.times}`);
    if (p.probability < 1) parts.push(`probability ${p.probability} (the seeded draw passed)`);
    return parts.join(' · ');
  }

  /** True when some live HTTP rule could match these facts but needs the JSON body (model_slug or prompt) to decide. */
  needsBody(facts: FaultFacts): boolean {
    return this.rules.some((rule) => {
      const m = rule.parsed.match;
      return (
        this.live(rule, 'http') &&
        (m.model_slug !== undefined || m.prompt !== undefined) &&
        this.matches(rule, facts, true)
      );
    });
  }

  snapshot(): FaultSnapshot[] {
    return this.rules.map(({ parsed: _parsed, ...snapshot }) => snapshot);
  }

  /**
   * Puts back rules a kept state holds, already checked whole by the fault section (fault-section.ts): their ids
   * may predate today's id rules (a store of record written by an older emulator), so they are not parsed again.
   */
  restore(rules: readonly FaultRule[]) {
    this.clear();
    for (const rule of rules) this.install({ ...rule });
  }
}
