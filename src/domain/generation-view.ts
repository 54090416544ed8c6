// The public generation record of spec 2.1, with output URLs signed afresh on every read.
import type { Generation, OutputFile } from './generation.js';
import type { GenerationCredits } from './ledger.js';

export type BillingStatus = 'charged' | 'partially_refunded' | 'refunded';

export interface SignedUrl {
  url: string;
  expiresAt: number;
  /** `expiresAt` as the API writes it; a page of outputs signed in one read shares one expiry, formatted once. */
  expiresAtText: string;
}

/** Signs an output URL; implemented in the wiring with the HMAC signer and the public base URL. */
export type OutputUrlSigner = (generation: Generation, output: OutputFile) => SignedUrl;

export function billingStatus(credits: GenerationCredits): BillingStatus {
  if (credits.refunded === 0) return 'charged';
  return credits.refunded >= credits.charged ? 'refunded' : 'partially_refunded';
}

/** The refund sentence a default failure message ends with (failures.ts); any other message is left alone. */
const REFUND_SENTENCE =
  / (The charge stands\.|The charge was refunded\.|\d+ of the \d+ credits charged were refunded\.)$/;

/** A later refund (control plane) changes the billing; the message must not keep saying what no longer holds. */
function currentBillingMessage(message: string, credits: GenerationCredits): string {
  if (!REFUND_SENTENCE.test(message)) return message;
  const status = billingStatus(credits);
  const sentence =
    status === 'charged'
      ? 'The charge stands.'
      : status === 'refunded'
        ? 'The charge was refunded.'
        : `${credits.refunded} of the ${credits.charged} credits charged were refunded.`;
  return message.replace(REFUND_SENTENCE, ` ${sentence}`);
}

const iso = (ms: number) => new Date(ms).toISOString().replace('Z', '+00:00');

/** A generation's timestamps as the API writes them. */
export interface TimestampTexts {
  createdAt: string;
  completedAt: string | null;
}

/**
 * Every read of every generation writes its timestamps (a list page, hundreds per second), and they never change once
 * set: each is formatted once and kept beside the record, per context, never on it, so no stored row, export or import
 * carries a formatted copy that could disagree with the instant it was made from.
 */
export class FormattedTimestamps {
  private readonly kept = new WeakMap<Generation, TimestampTexts>();

  of(g: Generation): TimestampTexts {
    const kept = this.kept.get(g);
    // A generation completes after its first read: its completion is formatted then.
    if (kept !== undefined && (kept.completedAt !== null || g.completedAt === null)) return kept;
    const texts = { createdAt: iso(g.createdAt), completedAt: g.completedAt === null ? null : iso(g.completedAt) };
    this.kept.set(g, texts);
    return texts;
  }
}

export function toPublicGeneration(
  g: Generation,
  credits: GenerationCredits,
  sign: OutputUrlSigner,
  timestamps: FormattedTimestamps,
) {
  const { createdAt, completedAt } = timestamps.of(g);
  return {
    id: g.id,
    request_id: g.requestId,
    api_key_id: g.apiKeyId,
    kind: g.kind,
    model_slug: g.modelSlug,
    prompt: g.prompt,
    params: g.params,
    texts: g.texts,
    status: g.status,
    created_at: createdAt,
    completed_at: completedAt,
    charged_credits: credits.charged,
    refunded_credits: credits.refunded,
    net_credits: credits.charged - credits.refunded,
    billing_status: billingStatus(credits),
    outputs: g.status === 'completed' ? g.outputs.map((o) => outputItem(g, o, sign)) : [],
    error: g.error ? { code: g.error.code, message: currentBillingMessage(g.error.message, credits) } : null,
  };
}

export type PublicGeneration = ReturnType<typeof toPublicGeneration>;

function outputItem(g: Generation, o: OutputFile, sign: OutputUrlSigner) {
  const signed = sign(g, o);
  return {
    url: signed.url,
    index: o.index,
    mime_type: o.mimeType,
    format: o.format,
    bytes: o.bytes,
    ...(o.width !== undefined ? { width: o.width, height: o.height } : {}),
    ...(o.durationSeconds !== undefined ? { duration_seconds: o.durationSeconds } : {}),
    expires_at: signed.expiresAtText,
  };
}

export { iso as isoTimestamp };
