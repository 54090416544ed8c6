// Whether some path matches both a fault rule's route pattern and a route of the front door's table.

/** A pattern as a sequence: one literal character, a non-empty segment (`[^/]+`), or anything (`.*`). */
type Token = { kind: 'char'; char: string } | { kind: 'segment' } | { kind: 'any' };

function literal(text: string): Token[] {
  return [...text].map((char) => ({ kind: 'char', char }));
}

/** A rule's route as compileRoute reads it: `:name` one segment, `*` anything, one trailing slash optional. */
export function routeTokens(route: string): Token[] {
  const tokens = route
    .split(/(:[A-Za-z_]\w*|\*)/)
    .flatMap((part): Token[] =>
      part === '*' ? [{ kind: 'any' }] : part.startsWith(':') ? [{ kind: 'segment' }] : literal(part),
    );
  const last = tokens[tokens.length - 1];
  if (last?.kind === 'char' && last.char === '/') tokens.pop();
  return tokens;
}

/** A route of the table: `:name` one segment; the front door also takes one trailing slash. */
export function templateTokens(path: string): Token[] {
  return path
    .split(/(:[A-Za-z_]\w*)/)
    .flatMap((part): Token[] => (part.startsWith(':') ? [{ kind: 'segment' }] : literal(part)));
}

/**
 * A token list as a small automaton: state 2i is before token i, 2i+1 inside a segment token i has begun; 2n is the
 * end, and 2n+1 the end after the trailing slash both sides allow.
 */
function closure(tokens: Token[], state: number, into: Set<number>): void {
  if (into.has(state)) return;
  into.add(state);
  const i = state >> 1;
  if (i >= tokens.length) return;
  const token = tokens[i];
  // Inside a begun segment, or before an `any`: the token may end here.
  if ((state & 1) === 1 || (token.kind === 'any' && (state & 1) === 0)) closure(tokens, 2 * (i + 1), into);
}

function step(tokens: Token[], state: number, char: string): number[] {
  const i = state >> 1;
  const n = tokens.length;
  if (i === n) return (state & 1) === 0 && char === '/' ? [2 * n + 1] : [];
  if (i > n) return [];
  const token = tokens[i];
  if (token.kind === 'char') return (state & 1) === 0 && token.char === char ? [2 * (i + 1)] : [];
  if (token.kind === 'any') return [state];
  return char === '/' ? [] : [2 * i + 1];
}

const accepting = (tokens: Token[], state: number) => state >> 1 === tokens.length;

/**
 * True when one path matches both: the product of the two automata reaches an accepting pair. The alphabet needs only
 * the literal characters of either, the slash, and one character standing for every other.
 */
export function overlaps(a: Token[], b: Token[]): boolean {
  const chars = new Set<string>(['/', '\u0000']);
  for (const token of [...a, ...b]) if (token.kind === 'char') chars.add(token.char);
  const width = 2 * b.length + 2;
  const seen = new Set<number>();
  const queue: [number, number][] = [];
  const push = (p: number, q: number) => {
    const ps = new Set<number>();
    const qs = new Set<number>();
    closure(a, p, ps);
    closure(b, q, qs);
    for (const p2 of ps)
      for (const q2 of qs) {
        const key = p2 * width + q2;
        if (seen.has(key)) continue;
        seen.add(key);
        queue.push([p2, q2]);
      }
  };
  push(0, 0);
  for (let next = 0; next < queue.length; next++) {
    const [p, q] = queue[next];
    if (accepting(a, p) && accepting(b, q)) return true;
    for (const char of chars) for (const p2 of step(a, p, char)) for (const q2 of step(b, q, char)) push(p2, q2);
  }
  return false;
}
