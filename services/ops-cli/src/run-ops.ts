// Runs one command line and answers its exit code: 0 done, 1 operational failure (one line on
// stderr), 2 usage error (the message and the usage text on stderr). With --json, stdout carries
// exactly one JSON document either way — the result, or `{"error": {kind, code, message}}`.
import { parseCliArgs, wantsJson, type OpsCommand } from './cli-args.ts';
import type { CommandOutput } from './command-output.ts';
import { dlqInspectCommand, dlqListCommand, dlqRedriveCommand } from './commands/dlq.ts';
import { eventsCommand } from './commands/events.ts';
import { exportCommand } from './commands/export.ts';
import { lagCommand } from './commands/lag.ts';
import { replayCommand } from './commands/replay.ts';
import { topicsCommand } from './commands/topics.ts';
import { opsConfig } from './ops-config.ts';
import { OpsFailure, UsageError } from './ops-errors.ts';
import { connectOps, type OpsKafka } from './ops-kafka.ts';
import { USAGE } from './usage.ts';

export interface OpsIo {
  stdout: (text: string) => Promise<void>;
  stderr: (line: string) => void;
}

export type ExitCode = 0 | 1 | 2;

export async function runOps(argv: readonly string[], env: Record<string, string | undefined>, io: OpsIo): Promise<ExitCode> {
  const json = wantsJson(argv);
  try {
    const { command } = parseCliArgs(argv);
    const out = await execute(command, env, io);
    await io.stdout(json ? `${JSON.stringify(out.json)}\n` : `${out.text}\n`);
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr(`ops: ${err.message}\n\n${USAGE}`);
      if (json) await io.stdout(`${JSON.stringify({ error: { kind: 'usage', code: 'usage', message: err.message } })}\n`);
      return 2;
    }
    const code = err instanceof OpsFailure ? err.code : 'failed';
    const message = oneLine(err);
    io.stderr(`ops: ${message}`);
    if (json) await io.stdout(`${JSON.stringify({ error: { kind: 'failure', code, message } })}\n`);
    return 1;
  }
}

async function execute(c: OpsCommand, env: Record<string, string | undefined>, io: OpsIo): Promise<CommandOutput> {
  if (c.command === 'help') return { json: { usage: USAGE }, text: USAGE };
  if (c.command === 'export') return exportCommand({ kind: c.kind, ...c.options }, env);
  if (c.command === 'replay') {
    return replayCommand(c.readModel, { keepOld: c.options['keep-old'] ?? false, allowTruncated: c.options['allow-truncated'] ?? false }, env, io.stderr);
  }
  const ops = await connectOps(opsConfig(env), io.stderr);
  try {
    return await withKafka(c, ops);
  } finally {
    await ops.close().catch(() => undefined);
  }
}

function withKafka(c: Exclude<OpsCommand, { command: 'help' | 'replay' | 'export' }>, ops: OpsKafka): Promise<CommandOutput> {
  switch (c.command) {
    case 'topics': return topicsCommand(ops);
    case 'lag': return lagCommand(ops, c.options.group);
    case 'dlq list': return dlqListCommand(ops);
    case 'dlq inspect': return dlqInspectCommand(ops, c.topic, c.options);
    case 'dlq redrive': return dlqRedriveCommand(ops, c.topic);
    case 'events': return eventsCommand(ops, c.key);
    default: { const never: never = c; throw new Error(`unhandled command ${JSON.stringify(never)}`); }
  }
}

function oneLine(err: unknown): string {
  const m = err instanceof Error ? err.message : String(err);
  return m.replace(/\s*\n\s*/g, '; ');
}
