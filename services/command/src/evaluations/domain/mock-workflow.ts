// The `agenta:custom:mock:v0` handler (reference evaluations §3.7): the workflow the reference's flow
// tests run as application and as evaluator, chosen by its parameters `{key, kwargs}`. Pure: the
// caller sleeps for `delayMs` and writes the invocation's trace (adapters/workflow-invoker.ts).
//   echo → outputs = the inputs; static → kwargs.output; pass → {score:1, success:true};
//   fail → {score:0, success:false}; score → {score, success: score ≥ threshold} (defaults 0, 0.5);
//   reflect → score 1 iff the received outputs are a non-empty object without score/success;
//   error → the invocation fails; delay → sleeps kwargs.seconds (capped), then acts as kwargs.then.
export const MOCK_URI = 'agenta:custom:mock:v0';
/** The longest `delay` served: a run's worker must not be parked on one cell. */
export const MOCK_MAX_DELAY_MS = 10_000;
export const MOCK_KEYS = ['echo', 'static', 'pass', 'fail', 'score', 'reflect', 'error', 'delay'] as const;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface MockRequest {
  parameters: unknown;
  /** The testcase's data (or the inputs sent). */
  inputs: Json;
  /** The upstream application's outputs (evaluators). */
  outputs?: unknown;
}

export type MockOutcome =
  | { ok: true; outputs: unknown; delayMs: number }
  | { ok: false; status: { code: number; type: string; message: string }; delayMs: number };

const verdict = (score: number, threshold = 0.5): Json => ({ score, success: score >= threshold });
const finite = (v: unknown, fallback: number): number => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);

function act(key: string, kwargs: Json, req: MockRequest, delayMs: number, depth: number): MockOutcome {
  switch (key) {
    case 'echo': return { ok: true, outputs: req.inputs, delayMs };
    case 'static': return { ok: true, outputs: kwargs.output ?? null, delayMs };
    case 'pass': return { ok: true, outputs: { score: 1.0, success: true }, delayMs };
    case 'fail': return { ok: true, outputs: { score: 0.0, success: false }, delayMs };
    case 'score': return { ok: true, outputs: verdict(finite(kwargs.score, 0), finite(kwargs.threshold, 0.5)), delayMs };
    case 'reflect': {
      const o = req.outputs;
      const seen = isObject(o) && Object.keys(o).length > 0 && !('score' in o) && !('success' in o);
      return { ok: true, outputs: verdict(seen ? 1.0 : 0.0), delayMs };
    }
    case 'error': {
      const message = typeof kwargs.message === 'string' && kwargs.message !== '' ? kwargs.message.slice(0, 500) : 'The mock workflow failed as asked (key "error").';
      return { ok: false, status: { code: 500, type: 'mock_error', message }, delayMs };
    }
    case 'delay': {
      if (depth > 0) return { ok: false, status: { code: 400, type: 'mock_invalid', message: 'A delay cannot be followed by another delay.' }, delayMs };
      const ms = Math.min(Math.max(0, finite(kwargs.seconds, 0) * 1000), MOCK_MAX_DELAY_MS);
      const then = typeof kwargs.then === 'string' ? kwargs.then : 'echo';
      return act(then, kwargs, req, ms, depth + 1);
    }
    default:
      return { ok: false, status: { code: 400, type: 'mock_invalid', message: `Unknown mock key "${key}": expected one of ${MOCK_KEYS.join(', ')}.` }, delayMs };
  }
}

/** What the mock handler answers for these parameters and inputs (key defaults to `echo`). */
export function runMock(req: MockRequest): MockOutcome {
  const p = isObject(req.parameters) ? req.parameters : {};
  const key = typeof p.key === 'string' ? p.key : 'echo';
  const kwargs = isObject(p.kwargs) ? p.kwargs : {};
  return act(key, kwargs, req, 0, 0);
}
