// Creates a fresh account (user, organization, project, API key) through the public admin endpoint.
import { randomBytes } from 'node:crypto';

export interface TestAccount {
  apiKey: string;
  projectId: string;
  organizationId: string;
  userId: string;
  email: string;
  auth: { Authorization: string };
}

/** `plan`: the organization's plan (default: the deployment's signup plan). */
export async function createAccount(baseUrl: string, adminToken: string, opts: { plan?: string } = {}): Promise<TestAccount> {
  const email = `${randomBytes(6).toString('hex')}@test.example.com`;
  const res = await fetch(`${baseUrl}/admin/simple/accounts/`, {
    method: 'POST',
    headers: { Authorization: `Access ${adminToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ accounts: { user: { user: { email }, options: { create_api_keys: true, return_api_keys: true, seed_defaults: false }, ...(opts.plan ? { subscription: { plan: opts.plan } } : {}) } } }),
  });
  if (res.status !== 200) throw new Error(`account creation failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { accounts: { user: { api_keys: { key: string }; projects: { prj: { id: string; organization_id: string } }; user: { id: string } } } };
  const acc = body.accounts.user;
  return { apiKey: acc.api_keys.key, projectId: acc.projects.prj.id, organizationId: acc.projects.prj.organization_id, userId: acc.user.id, email, auth: { Authorization: `ApiKey ${acc.api_keys.key}` } };
}
