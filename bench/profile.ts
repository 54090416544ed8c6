// Reads V8 .cpuprofile files (node --cpu-prof) and lists where the time goes: functions by self time, and the
// emulator's own functions (dist/) by total time including what they call.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

export interface HotFunction {
  name: string;
  where: string;
  selfPercent: number;
  totalPercent: number;
}

interface Tally {
  name: string;
  where: string;
  self: number;
  total: number;
}

export function profileSummary(dir: string, root: string): { bySelf: HotFunction[]; ownByTotal: HotFunction[] } {
  const tallies = new Map<string, Tally>();
  let busy = 0;
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
    const { nodes } = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { nodes: ProfileNode[] };
    const byId = new Map(nodes.map((n) => [n.id, n]));
    const keyOf = (n: ProfileNode) => {
      const { functionName, url, lineNumber } = n.callFrame;
      const path = url.startsWith('file://') ? relative(root, new URL(url).pathname) : url || '(native)';
      return {
        key: `${functionName}@${path}:${lineNumber}`,
        name: functionName || '(anonymous)',
        where: `${path}:${lineNumber + 1}`,
      };
    };
    // Total time counts a function once per sample even when it recurses: walk with the keys already on the stack.
    const walk = (node: ProfileNode, onStack: Set<string>): number => {
      const { key, name, where } = keyOf(node);
      const idle = node.callFrame.functionName === '(idle)';
      let hits = idle ? 0 : (node.hitCount ?? 0);
      const fresh = !onStack.has(key);
      if (fresh) onStack.add(key);
      for (const child of node.children ?? []) hits += walk(byId.get(child)!, onStack);
      if (fresh) onStack.delete(key);
      if (!idle) {
        const t = tallies.get(key) ?? { name, where, self: 0, total: 0 };
        t.self += node.hitCount ?? 0;
        if (fresh) t.total += hits;
        tallies.set(key, t);
        busy += node.hitCount ?? 0;
      }
      return hits;
    };
    walk(nodes[0], new Set());
  }
  const toHot = (t: Tally): HotFunction => ({
    name: t.name,
    where: t.where,
    selfPercent: (100 * t.self) / Math.max(1, busy),
    totalPercent: (100 * t.total) / Math.max(1, busy),
  });
  const all = [...tallies.values()];
  return {
    bySelf: all
      .sort((a, b) => b.self - a.self)
      .slice(0, 20)
      .map(toHot),
    ownByTotal: all
      .filter((t) => t.where.startsWith('dist/'))
      .sort((a, b) => b.total - a.total)
      .slice(0, 20)
      .map(toHot),
  };
}
