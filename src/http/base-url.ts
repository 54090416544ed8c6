// The base URL clients reached us at, so signed links work behind Docker port mappings and proxies.
import type { Request } from 'express';

const first = (value: string | string[] | undefined) =>
  (Array.isArray(value) ? value[0] : value)?.split(',')[0]?.trim();

export function baseUrlOf(req: Request, configured: string | undefined): string {
  if (configured) return configured.replace(/\/+$/, '');
  const proto = first(req.headers['x-forwarded-proto']) || req.protocol;
  const host = first(req.headers['x-forwarded-host']) || req.headers.host || 'localhost';
  const prefix = (first(req.headers['x-forwarded-prefix']) ?? '').replace(/\/+$/, '');
  return `${proto}://${host}${prefix}`;
}
