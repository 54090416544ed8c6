// The fetch host: a fetch Request in, a fetch Response out, over the neutral pipeline (msw's handlers are one caller).
import { errorAnswer } from '../answers.js';
import { INTERNAL } from '../error-answers.js';
import type { Pipeline } from '../pipeline.js';
import { FetchRequest } from './fetch-request.js';
import { FetchTransport, type ReadFileBody } from './fetch-transport.js';

export interface FetchHostOptions {
  /** A stored output's bytes (a FileBody: Node's renderer keeps files on disk); a browser's answers carry their bytes. */
  readFile?: ReadFileBody;
  log(line: string): void;
}

const noFiles: ReadFileBody = () => Promise.reject(new Error('this host keeps no output files on disk'));

/**
 * Answers one request. It never rejects: the pipeline maps every error to an answer, and a failure around it (a request
 * it cannot read) becomes the documented 500 envelope, logged once.
 */
export function fetchHost(pipeline: Pipeline, options: FetchHostOptions): (request: Request) => Promise<Response> {
  const readFile = options.readFile ?? noFiles;
  return async (request) => {
    try {
      const x = pipeline.open(new FetchRequest(request));
      const transport = new FetchTransport(request.signal, readFile);
      const running = pipeline.run(x, transport);
      // run() settles once the answer is handed over (or none will be); a rejection is a bug, answered below.
      const response = await Promise.race([transport.answer, running.then(() => transport.answer)]);
      void running.then(
        () => pipeline.finish(x, transport.outcome()),
        () => undefined,
      );
      return response;
    } catch (error) {
      options.log(
        `internal error on ${request.method} ${request.url}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      const answer = errorAnswer(500, 'internal_error', INTERNAL);
      return new Response(answer.body as string, { status: 500, headers: answer.headers });
    }
  };
}
