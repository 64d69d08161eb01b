// The agenta:custom:mock:v0 handler's behaviours (reference evaluations §3.7), as the flow tests use them.
import { describe, expect, it } from 'vitest';
import { MOCK_MAX_DELAY_MS, runMock } from '../src/evaluations/domain/mock-workflow.ts';

const run = (parameters: unknown, outputs?: unknown) => runMock({ parameters, inputs: { q: 'x' }, outputs });

describe('the mock workflow', () => {
  it('echoes, answers a static output, passes, fails and scores', () => {
    expect(run({ key: 'echo' })).toEqual({ ok: true, outputs: { q: 'x' }, delayMs: 0 });
    expect(run(undefined)).toEqual({ ok: true, outputs: { q: 'x' }, delayMs: 0 });
    expect(run({ key: 'static', kwargs: { output: { a: 1 } } })).toEqual({ ok: true, outputs: { a: 1 }, delayMs: 0 });
    expect(run({ key: 'pass' })).toMatchObject({ outputs: { score: 1, success: true } });
    expect(run({ key: 'fail' })).toMatchObject({ outputs: { score: 0, success: false } });
    expect(run({ key: 'score', kwargs: { score: 0.7 } })).toMatchObject({ outputs: { score: 0.7, success: true } });
    expect(run({ key: 'score', kwargs: { score: 0.7, threshold: 0.8 } })).toMatchObject({ outputs: { score: 0.7, success: false } });
    expect(run({ key: 'score' })).toMatchObject({ outputs: { score: 0, success: false } });
    expect(run({ key: 'score', kwargs: { score: 'high' } })).toMatchObject({ outputs: { score: 0, success: false } });
  });

  it('reflects whether it received an application\'s outputs (a non-empty object without score or success)', () => {
    expect(run({ key: 'reflect' }, { answer: 'Paris' })).toMatchObject({ outputs: { score: 1, success: true } });
    expect(run({ key: 'reflect' }, {})).toMatchObject({ outputs: { score: 0, success: false } });
    expect(run({ key: 'reflect' }, { score: 1 })).toMatchObject({ outputs: { score: 0 } });
    expect(run({ key: 'reflect' }, 'text')).toMatchObject({ outputs: { score: 0 } });
    expect(run({ key: 'reflect' })).toMatchObject({ outputs: { score: 0 } });
  });

  it('fails on error and on an unknown key; a delay is capped and then acts as `then`', () => {
    expect(run({ key: 'error', kwargs: { message: 'boom' } })).toEqual({ ok: false, status: { code: 500, type: 'mock_error', message: 'boom' }, delayMs: 0 });
    expect(run({ key: 'nope' })).toMatchObject({ ok: false, status: { code: 400 } });
    expect(run({ key: 'delay', kwargs: { seconds: 0.25, then: 'pass' } })).toEqual({ ok: true, outputs: { score: 1, success: true }, delayMs: 250 });
    expect(run({ key: 'delay', kwargs: { seconds: 3600 } })).toEqual({ ok: true, outputs: { q: 'x' }, delayMs: MOCK_MAX_DELAY_MS });
    expect(run({ key: 'delay', kwargs: { seconds: -5, then: 'fail' } })).toMatchObject({ delayMs: 0, outputs: { score: 0 } });
    expect(run({ key: 'delay', kwargs: { then: 'delay' } })).toMatchObject({ ok: false, status: { code: 400 } });
  });
});
