// Environment fragment for the services that seal or open stored secrets; compose it into the
// service's own schema. The parsed value is a keyring that prints as key ids only.
import { z } from 'zod';
import { parseSecretsKeys, type SecretsKeyring } from './secret-box.ts';

export const secretsKeyEnv = z.object({
  /** Base64 of 32 random bytes (`openssl rand -base64 32`); comma-separated for rotation, newest first. */
  SECRETS_KEY: z.string().transform((value, ctx): SecretsKeyring => {
    try {
      return parseSecretsKeys(value);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: err instanceof Error ? err.message : 'invalid secrets key' });
      return z.NEVER;
    }
  }),
});
export type SecretsKeyEnv = z.infer<typeof secretsKeyEnv>;
