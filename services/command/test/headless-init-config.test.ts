// INIT_*: all four or none, and a key in the API key format (parsed into what is stored of it).
import { describe, expect, it } from 'vitest';
import { parseConfig } from '@llm/config';
import { hashSecret } from '@llm/auth';
import { headlessInitEnv, headlessInitFromEnv } from '../src/headless-init-config.ts';

const SECRET = 'a'.repeat(64);
const full = { INIT_ORG_NAME: 'Acme', INIT_PROJECT_NAME: 'Prod', INIT_USER_EMAIL: 'ops@acme.example', INIT_API_KEY: `Abcd1234.${SECRET}` };

function fromEnv(env: Record<string, string>) {
  const parsed = parseConfig(headlessInitEnv, env);
  return parsed.ok ? headlessInitFromEnv(parsed.config) : parsed;
}

describe('headless initialisation settings', () => {
  it('when no INIT_* is set, then there is nothing to initialise', () => {
    expect(fromEnv({})).toEqual({ ok: true, config: undefined });
    expect(fromEnv({ INIT_ORG_NAME: '' })).toEqual({ ok: true, config: undefined });
  });

  it('when all four are set, then the key is kept raw and as its prefix and secret hash', () => {
    expect(fromEnv(full)).toEqual({ ok: true, config: {
      organizationName: 'Acme', projectName: 'Prod', userEmail: 'ops@acme.example',
      apiKey: { raw: `Abcd1234.${SECRET}`, prefix: 'Abcd1234', secretHash: hashSecret(SECRET) },
    } });
  });

  it('when only some are set, then each missing one is a problem naming it', () => {
    const r = fromEnv({ INIT_USER_EMAIL: 'ops@acme.example', INIT_API_KEY: full.INIT_API_KEY });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.problems).toEqual([expect.stringMatching(/^INIT_ORG_NAME: required/), expect.stringMatching(/^INIT_PROJECT_NAME: required/)]);
  });

  it.each(['secret', `Abcd123.${SECRET}`, `Abcd1234.${'A'.repeat(64)}`, `Abcd1234.${SECRET}0`])('when INIT_API_KEY is %j, then it is refused', (key) => {
    const r = fromEnv({ ...full, INIT_API_KEY: key });
    expect(!r.ok && r.problems).toEqual([expect.stringMatching(/^INIT_API_KEY: must be an API key/)]);
  });

  it('when INIT_USER_EMAIL is not an e-mail address, then the configuration is refused', () => {
    const r = fromEnv({ ...full, INIT_USER_EMAIL: 'nobody' });
    expect(!r.ok && r.problems).toEqual([expect.stringMatching(/^INIT_USER_EMAIL: /)]);
  });
});
