// What control routes are given: a way to build the control deps for one request (its base URL signs output links).
import type { Request } from 'express';
import type { ControlDeps } from '../plane-state.js';

export interface ControlRouteDeps {
  deps(req: Request): ControlDeps;
}

/** A path parameter as one string (Express 5 types them loosely). */
export const param = (req: Request, name: string) => String(req.params[name]);
