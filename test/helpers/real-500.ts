// The one exemption from "no 5xx": the real service's own 500 when an echoed input cannot be rendered by Python.

/** Starlette's plain answer when json.dumps fails on a 422 echo (NaN, infinities, lone surrogates, undecodable text). */
export const REAL_SERVICE_500 = {
  status: 500,
  contentType: 'text/plain; charset=utf-8',
  body: 'Internal Server Error',
};

/** What in a request body can make the real service answer that 500 (docs/proof.md, "Conformance"). */
const TRIGGER = /NaN|Infinity|\d[eE]\+?[3-9]\d\d|\\u[dD][89a-fA-F]/;

export function isRealService500(
  answer: { status: number; contentType: string | undefined; body: string },
  requestBody: Buffer | string | undefined,
): boolean {
  const bytes = Buffer.isBuffer(requestBody) ? requestBody : Buffer.from(requestBody ?? '');
  const notUtf8 = !bytes.equals(Buffer.from(bytes.toString('utf8')));
  return (
    answer.status === REAL_SERVICE_500.status &&
    answer.contentType === REAL_SERVICE_500.contentType &&
    answer.body === REAL_SERVICE_500.body &&
    (notUtf8 || TRIGGER.test(bytes.toString('utf8')))
  );
}
