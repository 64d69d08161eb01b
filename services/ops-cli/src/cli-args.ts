// Turns argv into one validated command. node's parseArgs splits options from positionals (strict:
// an unknown option is a usage error); zod then checks each command's shape, so an option given to
// a command that does not take it, a missing argument or a non-numeric offset is refused with exit 2
// before anything connects.
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { UsageError } from './ops-errors.ts';
import { EXPORT_FORMATS, EXPORT_KINDS } from './commands/export.ts';

const count = z.string().regex(/^\d+$/, 'must be a non-negative integer').transform(Number).pipe(z.number().int().safe());
const name = z.string().min(1).max(1000);

const noOptions = z.object({}).strict();
export const commandSchema = z.discriminatedUnion('command', [
  z.object({ command: z.literal('help') }),
  z.object({ command: z.literal('topics'), options: noOptions }),
  z.object({ command: z.literal('lag'), options: z.object({ group: name.optional() }).strict() }),
  z.object({ command: z.literal('dlq list'), options: noOptions }),
  z.object({
    command: z.literal('dlq inspect'), topic: name,
    options: z.object({ offset: count.optional(), limit: count.pipe(z.number().min(1, 'must be at least 1').max(10_000, 'must be at most 10000')).default(20), partition: count.optional() }).strict(),
  }),
  z.object({ command: z.literal('dlq redrive'), topic: name, options: noOptions }),
  z.object({
    command: z.literal('replay'), readModel: name,
    options: z.object({ 'keep-old': z.literal(true).optional(), 'allow-truncated': z.literal(true).optional() }).strict(),
  }),
  z.object({ command: z.literal('events'), key: name, options: noOptions }),
  z.object({
    command: z.literal('export'), kind: z.enum(EXPORT_KINDS, { error: `must be one of: ${EXPORT_KINDS.join(', ')}` }),
    options: z.object({
      out: z.string().min(1),
      format: z.enum(EXPORT_FORMATS, { error: `must be one of: ${EXPORT_FORMATS.join(', ')}` }).default('jsonl'),
      body: z.string().max(1_000_000).optional(),
    }).strict(),
  }),
]);
export type OpsCommand = z.infer<typeof commandSchema>;

export interface ParsedArgs { json: boolean; command: OpsCommand }

/** Whether `--json` was asked for, read even from a command line that fails to parse (errors then come as JSON too). */
export const wantsJson = (argv: readonly string[]): boolean => argv.includes('--json');

export function parseCliArgs(argv: readonly string[]): ParsedArgs {
  let values: Record<string, string | boolean | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: true,
      options: {
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        group: { type: 'string' },
        offset: { type: 'string' },
        limit: { type: 'string' },
        partition: { type: 'string' },
        'keep-old': { type: 'boolean' },
        'allow-truncated': { type: 'boolean' },
        out: { type: 'string' },
        format: { type: 'string' },
        body: { type: 'string' },
      },
    }));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const { json, help, ...options } = values;
  const asJson = json === true;
  if (help || positionals.length === 0) return { json: asJson, command: { command: 'help' } };
  const [first, second, third, ...rest] = positionals;
  let raw: Record<string, unknown>;
  let extra: string[];
  switch (first) {
    case 'topics': case 'lag':
      raw = { command: first, options }; extra = positionals.slice(1); break;
    case 'dlq':
      if (second !== 'list' && second !== 'inspect' && second !== 'redrive') throw new UsageError(second ? `unknown dlq command '${second}'` : 'dlq needs a command: list, inspect or redrive');
      raw = { command: `dlq ${second}`, topic: third, options };
      extra = second === 'list' ? positionals.slice(2) : rest;
      break;
    case 'replay':
      raw = { command: 'replay', readModel: second, options }; extra = positionals.slice(2); break;
    case 'events':
      raw = { command: 'events', key: second, options }; extra = positionals.slice(2); break;
    case 'export':
      if (second === undefined) throw new UsageError("'export' needs <spans|traces>");
      raw = { command: 'export', kind: second, options }; extra = positionals.slice(2); break;
    default:
      throw new UsageError(`unknown command '${first}'`);
  }
  if (extra.length) throw new UsageError(`unexpected argument '${extra[0]}'`);
  const parsed = commandSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.filter((p) => p !== 'options').join('.');
    const what = issue.code === 'unrecognized_keys' ? `option --${issue.keys[0]} does not apply to '${String(raw.command)}'`
      : issue.code === 'invalid_type' && issue.input === undefined ? `'${String(raw.command)}' needs ${where === 'readModel' ? '<read-model>' : where === 'key' ? '<aggregate-key>' : where === 'kind' ? '<spans|traces>' : where === 'out' ? '--out <file>' : `<${where}>`}`
        : `${where === 'kind' ? '<spans|traces>: ' : where ? `--${where}: ` : ''}${issue.message}`;
    throw new UsageError(what);
  }
  return { json: asJson, command: parsed.data };
}
