// Custom patterns run on V8's linear-time regular expression engine (the `l` flag, an automaton
// without backtracking): a pattern it cannot run in linear time — backreferences, lookarounds,
// large counted repetitions — is refused when the policy is set, never attempted on a value.
// The engine is behind a V8 flag; V8 reads it when a pattern is compiled, so setting it here, before
// any `l` pattern exists, is enough (and process-wide: worker threads share it).
import { setFlagsFromString } from 'node:v8';
import { MAX_PATTERN_LENGTH } from '@llm/contracts';

setFlagsFromString('--enable-experimental-regexp-engine');

export { MAX_PATTERN_LENGTH };

export type LinearPattern = { ok: true; re: RegExp } | { ok: false; reason: string };

/** Compiles `source` for the linear engine (global); refuses what it cannot run in linear time. */
export function compileLinearPattern(source: string): LinearPattern {
  if (source.length === 0) return { ok: false, reason: 'the pattern is empty' };
  if (source.length > MAX_PATTERN_LENGTH) return { ok: false, reason: `the pattern is longer than ${MAX_PATTERN_LENGTH} characters` };
  let re: RegExp;
  try {
    re = new RegExp(source, 'gl');
  } catch (err) {
    const why = (err as Error).message;
    return { ok: false, reason: /linear time/i.test(why) ? 'it cannot be run in linear time (backreferences, lookarounds and large counted repetitions are not supported)' : `it is not a valid regular expression (${why})` };
  }
  // A pattern that matches the empty string would put a placeholder between every two characters.
  re.lastIndex = 0;
  if (re.test('')) return { ok: false, reason: 'it matches the empty string' };
  re.lastIndex = 0;
  return { ok: true, re };
}
