// The base URL clients reached us at, so signed links work behind Docker port mappings and proxies.
import type { ServiceRequest } from './exchange.js';

const first = (value: string | string[] | undefined) =>
  (Array.isArray(value) ? value[0] : value)?.split(',')[0]?.trim();

export function baseUrlOf(request: ServiceRequest, configured: string | undefined): string {
  if (configured) return configured.replace(/\/+$/, '');
  const { headers } = request;
  const proto = first(headers['x-forwarded-proto']) || request.scheme;
  const host = first(headers['x-forwarded-host']) || (headers.host as string | undefined) || 'localhost';
  const prefix = (first(headers['x-forwarded-prefix']) ?? '').replace(/\/+$/, '');
  return `${proto}://${host}${prefix}`;
}
