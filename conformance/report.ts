// Prints the mismatch classes with one minimal example each, then the plain `N passed, M failed` line.
import type { RawRequest } from './cases.js';
import type { RawAnswer } from './exchange.js';

export interface Failure {
  mismatch: string;
  request: RawRequest;
  want: RawAnswer;
  got: RawAnswer;
}

const size = (f: Failure) => f.request.path.length + (f.request.body?.length ?? 0) + f.request.headers.length * 10;
const show = (b: Buffer | undefined, max = 400) => {
  const text = JSON.stringify(b ? b.toString('latin1') : '');
  return text.length > max ? `${text.slice(0, max)}...` : text;
};

export function printReport(failures: Failure[], total: number, run: { seed: number; seconds: number }) {
  const classes = new Map<string, { count: number; smallest: Failure }>();
  for (const failure of failures) {
    const entry = classes.get(failure.mismatch);
    if (!entry) classes.set(failure.mismatch, { count: 1, smallest: failure });
    else {
      entry.count++;
      if (size(failure) < size(entry.smallest)) entry.smallest = failure;
    }
  }
  if (classes.size) {
    console.log(`\n${classes.size} mismatch classes (seed ${run.seed}):\n`);
    console.log('| count | class |');
    console.log('|---:|---|');
    const sorted = [...classes].sort((a, b) => b[1].count - a[1].count);
    for (const [name, { count }] of sorted) console.log(`| ${count} | ${name} |`);
    console.log('\nMinimal examples (body shown as latin1 bytes):');
    for (const [name, { smallest: f }] of sorted) {
      console.log(`\n## ${name}`);
      console.log(`  ${f.request.method} ${f.request.path}`);
      for (const [k, v] of f.request.headers) console.log(`  ${k}: ${v}`);
      console.log(`  body: ${show(f.request.body)}`);
      console.log(`  FastAPI:  ${f.want.status} ${f.want.contentType} ${show(f.want.body)}`);
      console.log(`  emulator: ${f.got.status} ${f.got.contentType} ${show(f.got.body)}`);
    }
  }
  console.log(`\nseed ${run.seed}, ${total} cases in ${run.seconds.toFixed(1)} s`);
  console.log(`${total - failures.length} passed, ${failures.length} failed`);
}

/** One failure as a JSON line (`--save FILE`): the whole request and both answers, bodies as UTF-8 and as base64. */
export function asJson(f: Failure) {
  const body = (b: Buffer | undefined) => ({ utf8: b?.toString('utf8') ?? '', base64: b?.toString('base64') ?? '' });
  return {
    mismatch: f.mismatch,
    request: { method: f.request.method, path: f.request.path, headers: f.request.headers, body: body(f.request.body) },
    fastapi: { status: f.want.status, contentType: f.want.contentType, body: body(f.want.body) },
    emulator: { status: f.got.status, contentType: f.got.contentType, body: body(f.got.body) },
  };
}
