// Which operations a fault rule can fire on, from the front door's route table: a rule that reaches none is refused, saying why.
import type { FieldProblem } from '../../domain/zod-issues.js';
import { PUBLIC_ROUTES, type PublicOperation } from '../../http/public-routes.js';
import { isGenerationAction, type ParsedFaultRule } from './fault-schema.js';
import { overlaps, routeTokens, templateTokens } from './route-overlap.js';

/** The matchers that look at a fact of the request (not its method or path). */
type FactMatcher = Exclude<keyof ParsedFaultRule['match'], 'method' | 'route'>;
const FACT_MATCHERS: readonly FactMatcher[] = ['key_id', 'model_slug', 'prompt', 'idempotency_key', 'generation_id'];

const KEY_AND_RETRY: readonly FactMatcher[] = ['key_id', 'idempotency_key'];

/**
 * What each operation's exchange tells a rule (fault-facts.ts): the calling key and the Idempotency-Key on the public
 * API; the model and the prompt where the JSON body or the query carries them; the generation a read or a download
 * names, and for a download the generation's model and the key that created it.
 */
export const OPERATION_FACTS: Readonly<Record<PublicOperation, readonly FactMatcher[]>> = {
  listModels: KEY_AND_RETRY,
  estimate: [...KEY_AND_RETRY, 'model_slug', 'prompt'],
  listGenerations: [...KEY_AND_RETRY, 'model_slug'],
  submitGeneration: [...KEY_AND_RETRY, 'model_slug', 'prompt'],
  getGeneration: [...KEY_AND_RETRY, 'generation_id'],
  getUsage: KEY_AND_RETRY,
  upload: KEY_AND_RETRY,
  getOutputFile: ['generation_id', 'model_slug', 'key_id'],
};

/** A generation action acts when a submission is accepted: on this operation only, with its facts. */
const ACCEPTANCE: PublicOperation = 'submitGeneration';

const TARGETS = PUBLIC_ROUTES.map((route) => ({ ...route, facts: OPERATION_FACTS[route.operation] }));
type Target = (typeof TARGETS)[number];

const list = (targets: readonly Target[]) =>
  targets.map((t) => `${t.method} ${t.path.replace(/:(\w+)/g, '{$1}')}`).join(', ');

/** A method reaches a GET route through HEAD too (the front door answers HEAD with the GET handler). */
const takes = (target: Target, method: string) =>
  target.method === method || (method === 'HEAD' && target.method === 'GET');

/**
 * Why no request could ever fire this rule, one problem per field at fault; empty when some operation can. An HTTP
 * action fires on the public API and on downloads; a generation action on accepted submissions only.
 */
export function unreachable(rule: ParsedFaultRule): FieldProblem[] {
  const { match, action } = rule;
  const generation = isGenerationAction(action);
  let targets = generation ? TARGETS.filter((t) => t.operation === ACCEPTANCE) : TARGETS;
  const scope = generation
    ? `a ${action.type} action acts when a submission is accepted (${list(targets)})`
    : 'no route of the API';
  const method = match.method;
  if (method !== undefined) {
    const taking = targets.filter((t) => takes(t, method));
    if (taking.length === 0)
      return [
        {
          field: 'match.method',
          message: generation ? `${scope}, never on ${method}` : `${scope} takes ${method} (routes: ${list(TARGETS)})`,
        },
      ];
    targets = taking;
  }
  if (match.route !== undefined) {
    const pattern = routeTokens(match.route);
    const reached = targets.filter((t) => overlaps(pattern, templateTokens(t.path)));
    if (reached.length === 0)
      return [
        {
          field: 'match.route',
          message: generation
            ? `${scope}, and "${match.route}" never matches its path`
            : `"${match.route}" matches no${method ? ` ${method}` : ''} route of the API (routes: ${list(targets)})`,
        },
      ];
    targets = reached;
  }
  const problems: FieldProblem[] = [];
  for (const fact of FACT_MATCHERS) {
    if (match[fact] === undefined) continue;
    const knowing = targets.filter((t) => t.facts.includes(fact));
    if (knowing.length > 0) {
      targets = knowing;
      continue;
    }
    const where = list(TARGETS.filter((t) => t.facts.includes(fact)));
    problems.push({
      field: `match.${fact}`,
      message: generation
        ? `${scope}, which never tells a rule the ${fact}`
        : `${list(targets)} never ${targets.length === 1 ? 'tells' : 'tell'} a rule the ${fact}; it is known on ${where}`,
    });
  }
  return problems;
}
