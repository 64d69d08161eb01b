// One delivery attempt (reference accounts §9.4, §9.7): a single POST through the outbound guard,
// which resolves, vets and pins the address for this call (Host and SNI keep the name) and follows
// no redirect, then the verdict:
//   2xx → success; 1xx/3xx/4xx → failed, no retry; 5xx → retry;
//   timeout → retry, code "0", error "Timeout: …"; transport error → retry, code "0";
//   a URL the guard refuses (scheme, credentials, blocked address, …) → failed, code "400", no retry.
// Whether a `retry` is the final attempt is the caller's decision (see retry.ts). Never throws.
import { isOutboundError, type OutboundClient, type OutboundResponse } from '@llm/outbound';
import { authHeaders, redactHeaders, type AuthMode, type PreparedDelivery } from './outbound-request.ts';

/** The response body kept in a delivery record (§9.4). */
export const RESPONSE_BODY_CHARS = 2000;
/** Response bytes read at most: enough for the recorded excerpt, small enough for any receiver. */
export const RESPONSE_MAX_BYTES = 64 * 1024;

export interface AttemptOutcome {
  /** `retry`: transient; the caller records `failed` only if no attempt is left. */
  kind: 'success' | 'failed' | 'retry';
  status: { timestamp: string; code: string; message: 'success' | 'failed' };
  data: {
    event_type: string;
    url: string;
    /** As sent, credentials redacted. */
    headers: Record<string, string>;
    payload: unknown;
    response?: { status_code: number; body?: string };
    error?: string;
  };
}

export interface SendOptions {
  timeoutMs: number;
  /** The attempt's clock (signature time and status timestamp). */
  now?: () => Date;
}

export async function sendDelivery(
  client: OutboundClient,
  prepared: PreparedDelivery,
  auth: { mode: AuthMode; secret: string },
  opts: SendOptions,
): Promise<AttemptOutcome> {
  const at = (opts.now ?? (() => new Date()))();
  const headers = authHeaders(prepared, auth.mode, auth.secret, Math.floor(at.getTime() / 1000));
  const base = { event_type: prepared.eventType, url: prepared.url, headers: redactHeaders(headers), payload: prepared.payload };
  const outcome = (kind: AttemptOutcome['kind'], code: string, extra: Pick<AttemptOutcome['data'], 'response' | 'error'>): AttemptOutcome => ({
    kind,
    status: { timestamp: at.toISOString(), code, message: kind === 'success' ? 'success' : 'failed' },
    data: { ...base, ...extra },
  });
  const byStatus = (status: number, body: string | undefined, error?: string): AttemptOutcome =>
    outcome(verdict(status), String(status), {
      response: { status_code: status, ...(body !== undefined && { body }) },
      ...(error !== undefined && { error }),
    });

  let res: OutboundResponse;
  try {
    res = await client.request(prepared.url, {
      method: 'POST',
      headers,
      body: prepared.body,
      timeoutMs: opts.timeoutMs,
      maxBytes: RESPONSE_MAX_BYTES,
      maxRedirects: 0,
    });
  } catch (err) {
    if (!isOutboundError(err)) return outcome('retry', '0', { error: messageOf(err) });
    switch (err.code) {
      case 'bad_url':
      case 'blocked_target':
        return outcome('failed', '400', { error: err.message });
      case 'timeout':
        return outcome('retry', '0', { error: `Timeout: ${err.message}` });
      case 'too_large':
      case 'http_status':
      case 'bad_response':
        // The receiver answered; its status decides (the body is not kept).
        if (err.status !== undefined && err.status > 0) return byStatus(err.status, undefined, verdict(err.status) === 'success' ? undefined : err.message);
        return outcome('retry', '0', { error: err.message });
      case 'transport':
        return outcome('retry', '0', { error: err.message });
    }
  }
  return byStatus(res.status, excerpt(res.body));
}

function verdict(status: number): AttemptOutcome['kind'] {
  if (status >= 200 && status <= 299) return 'success';
  if (status >= 500) return 'retry';
  return 'failed';
}

/** The first 2000 characters of the body as text (never a broken surrogate pair at the cut). */
function excerpt(body: Buffer): string {
  const text = body.subarray(0, RESPONSE_BODY_CHARS * 4).toString('utf8');
  if (text.length <= RESPONSE_BODY_CHARS) return text;
  let cut = RESPONSE_BODY_CHARS;
  const last = text.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut--;
  return text.slice(0, cut);
}

function messageOf(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return String(err);
}
