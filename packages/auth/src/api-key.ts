// API keys: `<prefix>.<secret>`, prefix 8 alphanumerics, secret 64 lowercase hex (32 random bytes).
// Stored as prefix + sha256(secret); the raw key is shown once, at creation.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const KEY_RE = /^([A-Za-z0-9]{8})\.([0-9a-f]{64})$/;

export interface GeneratedApiKey {
  raw: string;
  prefix: string;
  secretHash: string;
}

export function generateApiKey(): GeneratedApiKey {
  const bytes = randomBytes(8);
  let prefix = '';
  for (const b of bytes) prefix += ALNUM[b % ALNUM.length];
  const secret = randomBytes(32).toString('hex');
  return { raw: `${prefix}.${secret}`, prefix, secretHash: hashSecret(secret) };
}

export const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');

export function parseApiKey(raw: string): { prefix: string; secretHash: string } | undefined {
  const m = KEY_RE.exec(raw.trim());
  if (!m) return undefined;
  return { prefix: m[1]!, secretHash: hashSecret(m[2]!) };
}

export function safeEqual(a: string, b: string): boolean {
  const ba = Buffer.from(a);
  const bb = Buffer.from(b);
  return ba.length === bb.length && timingSafeEqual(ba, bb);
}
