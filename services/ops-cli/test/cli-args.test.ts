import { describe, expect, it } from 'vitest';
import { parseCliArgs } from '../src/cli-args.ts';
import { UsageError } from '../src/ops-errors.ts';

const usageError = (argv: string[]): string => {
  try {
    parseCliArgs(argv);
  } catch (err) {
    if (err instanceof UsageError) return err.message;
    throw err;
  }
  throw new Error(`expected a usage error for ${argv.join(' ')}`);
};

describe('ops command line', () => {
  it('when dlq inspect is given a topic, an offset and --json, then they come out typed with the default limit', () => {
    expect(parseCliArgs(['dlq', 'inspect', 'spans', '--offset', '7', '--json'])).toEqual({
      json: true, command: { command: 'dlq inspect', topic: 'spans', options: { offset: 7, limit: 20 } },
    });
  });

  it('when lag names a group, then the group is passed on', () => {
    expect(parseCliArgs(['lag', '--group', 'projector-spans.clickhouse']).command).toEqual({ command: 'lag', options: { group: 'projector-spans.clickhouse' } });
  });

  it('when replay has its flags, then they are kept', () => {
    expect(parseCliArgs(['replay', 'spans', '--keep-old']).command).toEqual({ command: 'replay', readModel: 'spans', options: { 'keep-old': true } });
  });

  it('when export names what, where and how, then they come out typed; the format defaults to JSON Lines', () => {
    expect(parseCliArgs(['export', 'spans', '--out', 'a.csv', '--format', 'csv', '--body', '{"windowing":{"order":"ascending"}}']).command).toEqual({
      command: 'export', kind: 'spans', options: { out: 'a.csv', format: 'csv', body: '{"windowing":{"order":"ascending"}}' },
    });
    expect(parseCliArgs(['export', 'traces', '--out', 't.jsonl']).command).toEqual({ command: 'export', kind: 'traces', options: { out: 't.jsonl', format: 'jsonl' } });
  });

  it('when nothing or --help is given, then help is the command', () => {
    expect(parseCliArgs([]).command).toEqual({ command: 'help' });
    expect(parseCliArgs(['lag', '-h']).command).toEqual({ command: 'help' });
  });

  it('when the command line is wrong, then each mistake is a usage error naming it', () => {
    expect(usageError(['frobnicate'])).toBe("unknown command 'frobnicate'");
    expect(usageError(['dlq'])).toMatch(/list, inspect or redrive/);
    expect(usageError(['dlq', 'peek'])).toBe("unknown dlq command 'peek'");
    expect(usageError(['dlq', 'inspect'])).toBe("'dlq inspect' needs <topic>");
    expect(usageError(['events'])).toBe("'events' needs <aggregate-key>");
    expect(usageError(['replay'])).toBe("'replay' needs <read-model>");
    expect(usageError(['topics', 'extra'])).toBe("unexpected argument 'extra'");
    expect(usageError(['topics', '--group', 'g'])).toBe("option --group does not apply to 'topics'");
    expect(usageError(['dlq', 'inspect', 'spans', '--offset=-1'])).toMatch(/^--offset: /);
    expect(usageError(['dlq', 'inspect', 'spans', '--offset', 'x'])).toBe('--offset: must be a non-negative integer');
    expect(usageError(['dlq', 'inspect', 'spans', '--limit', '0'])).toMatch(/^--limit: /);
    expect(usageError(['lag', '--bogus'])).toMatch(/bogus/);
    expect(usageError(['export'])).toBe("'export' needs <spans|traces>");
    expect(usageError(['export', 'spans'])).toBe("'export' needs --out <file>");
    expect(usageError(['export', 'logs', '--out', 'x'])).toBe('<spans|traces>: must be one of: spans, traces');
    expect(usageError(['export', 'spans', '--out', 'x', '--format', 'xml'])).toBe('--format: must be one of: jsonl, csv, parquet');
    expect(usageError(['lag', '--format', 'csv'])).toBe("option --format does not apply to 'lag'");
  });
});
