// POST /providers/probe (and /vault/v1/providers/probe): tries a provider credential with one read
// of the provider's model list through the outbound guard (reference §8). The credential lives in
// this request only: it is not stored, not logged (only kind, statuses and a model count are), and
// not echoed — validation 422s carry no `input`, and no message here quotes it. No redirect is
// followed and nothing is retried: a probe is a button a person is waiting on.
import type { RequestHandler, Response } from 'express';
import { probeProviderRequest } from '@llm/contracts';
import { validate, type Handlers, type Guards } from '@llm/http';
import { isOutboundError, type OutboundRequestInit, type OutboundResponse } from '@llm/outbound';
import { failureOutcome, interpretAnswer, planProbe, probeResponse, type ProbeOutcome, type ProbeRequest } from '../domain/provider-probe.ts';
import type { ProviderProbeOptions } from '../../provider-probe-config.ts';

export interface ProviderProbeRouteDeps {
  /** `request` of the command side's outbound guard (private and loopback targets refused unless allowed). */
  request: (url: string, init: OutboundRequestInit) => Promise<OutboundResponse>;
  options: ProviderProbeOptions;
}

/**
 * §8 words these refusals as `{"detail": "<message>"}` with status 422, where our central
 * renderer gives unprocessable errors the list shape of validation errors; so they are answered
 * here, in the usual `{detail}` body.
 */
const refuse = (res: Response, message: string): void => { res.status(422).json({ detail: message }); };

/**
 * What Node's http client throws, before anything is sent, for a header name or value it cannot
 * write (CR, LF, NUL, a character above U+00FF) or a path with unescaped characters. The contract
 * already refuses such keys; this keeps any value that slips past it a 4xx rather than a 500.
 * Node's own message is not passed on: ERR_HTTP_INVALID_HEADER_VALUE quotes the value (the key).
 */
const UNSENDABLE = new Set(['ERR_INVALID_CHAR', 'ERR_INVALID_HTTP_TOKEN', 'ERR_HTTP_INVALID_HEADER_VALUE', 'ERR_UNESCAPED_CHARACTERS']);
export const UNSENDABLE_MESSAGE = 'The key, or another value of the request, holds characters that cannot be sent to the provider.';

/** Node's error itself, or (should a wrapper ever catch it) the cause of the wrapping error. */
function isUnsendable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e !== null && typeof e === 'object' && depth < 3; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && UNSENDABLE.has(code)) return true;
  }
  return false;
}

export function providerProbeRoutes(deps: ProviderProbeRouteDeps, guards: Guards<'edit'>): Handlers {
  async function send(probe: ProbeRequest): Promise<ProbeOutcome | { refused: string }> {
    try {
      const answer = await deps.request(probe.url, { method: 'GET', headers: probe.headers, maxRedirects: 0, timeoutMs: deps.options.timeoutMs });
      return interpretAnswer(probe, answer.status, answer.body.toString('utf8'));
    } catch (err) {
      if (isUnsendable(err)) return { refused: UNSENDABLE_MESSAGE };
      if (!isOutboundError(err)) throw err;
      switch (err.code) {
        // The guard refused the address before anything was sent: the caller's URL is at fault.
        case 'bad_url':
        case 'blocked_target': return { refused: err.message };
        case 'timeout': return failureOutcome(probe, 'timeout');
        case 'too_large': return failureOutcome(probe, 'too_large', err.status);
        default: return failureOutcome(probe, 'unreachable');
      }
    }
  }

  const probe: RequestHandler = async (req, res) => {
    const body = validate(probeProviderRequest, req.body);
    const plan = planProbe(body, { baseUrls: deps.options.baseUrls });
    if (!plan.ok) { refuse(res, plan.refusal.message); return; }
    const outcome = 'answer' in plan ? plan.answer : await send(plan.send);
    if ('refused' in outcome) { refuse(res, outcome.refused); return; }
    req.log?.info({ kind: body.kind, credential: outcome.credential.status, discovery: outcome.discovery.status, models: outcome.discovery.models.length }, 'provider probe');
    res.status(200).json(probeResponse(outcome, new Date()));
  };

  return {
    'providers.probe': [...guards.edit, probe],
    'vault.providers.probe': [...guards.edit, probe],
  };
}
