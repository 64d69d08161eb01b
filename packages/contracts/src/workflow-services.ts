// The workflow services the server runs itself (reference evaluations §3.7): `POST
// /services/mock/v0/invoke`, the `agenta:custom:mock:v0` handler. The request is the reference's
// invocation body; the answer carries the invocation's trace and span ids, a status (`code` 200 on
// success, the handler's failure otherwise) and the outputs.
import { z } from 'zod';
import { jsonObject, jsonValue, text, textRecord } from './text.ts';

const hex = (n: number, label: string) => z.string().transform((s) => s.replaceAll('-', '').toLowerCase()).pipe(
  z.string().regex(new RegExp(`^[0-9a-f]{${n}}$`), { error: `${label} must be ${n} hexadecimal digits` }),
);
/** A span to link to: the application invocation an evaluator judges. */
export const invocationLink = z.object({ trace_id: hex(32, 'trace_id'), span_id: hex(16, 'span_id') });

export const workflowInvoke = z.object({
  version: text({ max: 32, label: 'version' }).nullish(),
  flags: jsonObject.nullish(),
  data: z.object({
    revision: jsonObject.nullish(),
    parameters: jsonObject.nullish(),
    testcase: jsonObject.nullish(),
    inputs: jsonObject.nullish(),
    trace: invocationLink.nullish(),
    outputs: jsonValue.optional(),
  }).nullish(),
  references: jsonObject.nullish(),
  links: textRecord(invocationLink).nullish(),
});
export type WorkflowInvoke = z.infer<typeof workflowInvoke>;

export const workflowInvokeResponse = z.object({
  version: z.string(),
  trace_id: z.string().regex(/^[0-9a-f]{32}$/),
  span_id: z.string().regex(/^[0-9a-f]{16}$/),
  status: z.object({ code: z.number().int(), type: z.string().optional(), message: z.string().optional() }),
  data: z.object({ outputs: z.unknown() }).optional(),
});
