// A control operation's JSON body read as express.json read it: a JSON media type, a UTF charset, an object or array.
import { UnreadableRequest } from '../../http/error-answers.js';
import type { Exchange } from '../../http/exchange.js';
import { charsetOf, mediaTypeOf } from '../../http/media-type.js';

const FIRST_NON_WHITESPACE = /^[ \t\n\r]*([^ \t\n\r]|$)/;

function decode(bytes: Uint8Array, charset: string): string {
  try {
    // Not fatal: an invalid sequence reads as U+FFFD, as iconv-lite read it for body-parser.
    return new TextDecoder(charset).decode(bytes);
  } catch {
    throw new UnreadableRequest(415, `unsupported charset "${charset.toUpperCase()}"`);
  }
}

/** JSON.parse's refusal as the reason, and a body that is neither an object nor an array refused as strict parsing does. */
function parse(text: string): unknown {
  if (text.length === 0) return {};
  const first = FIRST_NON_WHITESPACE.exec(text)?.[1];
  if (first !== '{' && first !== '[')
    throw new UnreadableRequest(
      400,
      first ? `Unexpected token '${first}', the body must be a JSON object or array` : 'Unexpected end of JSON input',
    );
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UnreadableRequest(400, (error as Error).message);
  }
}

/**
 * The body of a control call; undefined when none was sent (the operation reads it as `{}`). A body sent as anything
 * but JSON is refused as unreadable (415), naming the content type to send: read as absent, an operation would answer
 * "(root): is required". The bytes are read as sent, with no Content-Encoding undone, as on the public API.
 */
export async function controlBody(x: Exchange, limit: number): Promise<unknown> {
  const { body } = x.request;
  if (!body.present) return undefined;
  const contentType = x.header('content-type');
  if (mediaTypeOf(contentType) !== 'application/json') {
    if (body.declaredLength === 0 && x.header('transfer-encoding') === undefined) return undefined;
    throw new UnreadableRequest(
      415,
      `a body sent as ${contentType ?? 'no Content-Type'}; send it as JSON with Content-Type: application/json`,
    );
  }
  const charset = charsetOf(contentType) ?? 'utf-8';
  if (!charset.startsWith('utf-')) throw new UnreadableRequest(415, `unsupported charset "${charset.toUpperCase()}"`);
  return parse(decode(await x.readBytes(limit), charset));
}
