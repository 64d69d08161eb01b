// node --import tsx test/bench/redaction.bench.ts [--seconds 10] [--secrets]: what redaction costs at
// ingest. Runs the OTLP decode worker's whole step (prepareOtlp: decode, adapt, normalise, redact,
// encode) on bodies shaped like bench:ingest's (100 LLM spans of 1–2 KB, prompts and completions as
// JSON text), with no policy and with the default policy (every built-in detector on every
// attribute), alternating in 1 s slices so both see the same machine, and prints the thread's CPU
// per span of each and the difference. `--secrets` puts an e-mail, a card number and an API key in
// every prompt (the redacted path also rewrites values). Nothing is asserted: read it, compare runs.
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { encodeExportTraceServiceRequest, type OtlpSpanInput } from '@llm/otlp';
import { prepareOtlp, type OtlpScopeMeta } from '../../services/command/src/ingest/domain/prepare-otlp.ts';

const { values: opt } = parseArgs({ options: { seconds: { type: 'string', default: '10' }, secrets: { type: 'boolean', default: false } } });
const SECONDS = Math.max(2, Number(opt.seconds));
const SPANS_PER_REQ = 100;
const SPANS_PER_TRACE = 5;

function body(variant: number): Buffer {
  const spans: OtlpSpanInput[] = [];
  const now = 1_600_000_000_123_456_789n;
  const secret = opt.secrets ? ' Reach me at jane.doe@example.com, card 4111 1111 1111 1111, key sk-proj-abcdefghijklmnopqrstuvwxyz012345.' : '';
  for (let t = 0; t < SPANS_PER_REQ / SPANS_PER_TRACE; t++) {
    const traceId = randomBytes(16);
    const rootId = randomBytes(8);
    const prompt = JSON.stringify([{ role: 'system', parts: [{ type: 'text', content: 'You are a helpful assistant that answers questions about geography. Answer briefly, cite one reliable source, and never invent facts you cannot support.' }] }, { role: 'user', parts: [{ type: 'text', content: `What is the capital of country number ${t + variant}? Please answer in one sentence and cite a source. If several cities share the role, name the seat of government.${secret}` }] }]);
    const answer = JSON.stringify([{ role: 'assistant', parts: [{ type: 'text', content: 'The capital is Paris, which has been the seat of government since the 10th century, apart from short periods during wars (source: Encyclopaedia Britannica, entry on Paris).' }], finish_reason: 'stop' }]);
    spans.push({ traceId, spanId: rootId, name: 'invoke_agent geo', kind: 2, startTimeUnixNano: now, endTimeUnixNano: now + 900_000_000n,
      attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'geo', 'session.id': `s-${t % 50}`, 'user.id': `u-${t % 200}`, 'service.version': '1.4.2' } });
    for (let i = 1; i < SPANS_PER_TRACE; i++) {
      spans.push({ traceId, spanId: randomBytes(8), parentSpanId: rootId, name: `chat gpt-4o-mini ${i}`, kind: 3,
        startTimeUnixNano: now + BigInt(i) * 100_000_000n, endTimeUnixNano: now + BigInt(i) * 100_000_000n + 80_000_000n,
        attributes: {
          'gen_ai.operation.name': 'chat', 'gen_ai.system': 'openai', 'gen_ai.request.model': 'gpt-4o-mini', 'gen_ai.response.model': 'gpt-4o-mini-2024-07-18',
          'gen_ai.request.temperature': { double: 0.2 }, 'gen_ai.request.max_tokens': 512, 'gen_ai.usage.input_tokens': 120 + i, 'gen_ai.usage.output_tokens': 40 + i,
          'gen_ai.response.finish_reasons': ['stop'], 'gen_ai.input.messages': prompt, 'gen_ai.output.messages': answer, 'server.address': 'api.openai.com',
        },
        status: { code: 1 } });
    }
  }
  return Buffer.from(encodeExportTraceServiceRequest({ resourceSpans: [{ resource: { attributes: { 'service.name': 'bench' } }, scopeSpans: [{ scope: { name: 'bench' }, spans }] }] }));
}

const bodies = Array.from({ length: 8 }, (_, v) => body(v));
const base: OtlpScopeMeta = { projectId: '0198c2a4-6b1f-7c3e-9d2a-5f8e7b6a4c31', organizationId: '0198c2a4-6b1f-7c3e-9d2a-5f8e7b6a4c32', requestId: 'bench', actorId: 'bench' };
const modes = {
  off: base,
  on: { ...base, redaction: { version: 1, policy: {} } },
} satisfies Record<string, OtlpScopeMeta>;

// The redacted records must differ from the raw ones exactly when there is something to redact.
const probe = (m: OtlpScopeMeta): string => {
  const r = prepareOtlp(bodies[0]!, m);
  if (!r.ok) throw new Error(r.reason);
  return Buffer.concat(r.records.map((x) => x.value)).toString('latin1');
};
const rawProbe = probe(modes.off);
const redactedProbe = probe(modes.on);
if (opt.secrets && (redactedProbe.includes('4111 1111 1111 1111') || !rawProbe.includes('4111 1111 1111 1111'))) throw new Error('the secrets were not redacted');
if (!redactedProbe.includes('policy_version')) throw new Error('the redacted records do not carry the policy version');

const cpu = { off: 0, on: 0 };
const spans = { off: 0, on: 0 };
const sliceUs = 1_000_000;
const end = Date.now() + SECONDS * 1000;
let i = 0;
// A warm-up slice of each, not counted.
for (const m of ['off', 'on', 'off', 'on'] as const) {
  const until = process.cpuUsage().user + sliceUs / 2;
  while (process.cpuUsage().user < until) prepareOtlp(bodies[i++ % bodies.length]!, modes[m]);
}
while (Date.now() < end) {
  for (const m of ['off', 'on'] as const) {
    const start = process.cpuUsage();
    let n = 0;
    for (;;) {
      prepareOtlp(bodies[i++ % bodies.length]!, modes[m]);
      n += SPANS_PER_REQ;
      const used = process.cpuUsage(start);
      if (used.user + used.system >= sliceUs) { cpu[m] += used.user + used.system; break; }
    }
    spans[m] += n;
  }
}
const per = (m: 'off' | 'on'): number => cpu[m] / spans[m];
console.log(`prepareOtlp on bench bodies (${SPANS_PER_REQ} spans of ~${Math.round(bodies[0]!.length / SPANS_PER_REQ)} B per request${opt.secrets ? ', a secret of each kind in every prompt' : ''}), ${SECONDS} s, CPU per span of the thread:`);
console.log(`  no policy       ${per('off').toFixed(1).padStart(7)} µs/span  (${spans.off} spans)`);
console.log(`  default policy  ${per('on').toFixed(1).padStart(7)} µs/span  (${spans.on} spans)`);
console.log(`  redaction       ${(per('on') - per('off')).toFixed(1).padStart(7)} µs/span  = ${(((per('on') / per('off')) - 1) * 100).toFixed(1)} % of the decode worker's step`);
