// The Kafka key of every account event, by the scope its rules are decided in: all events of one
// key go to one partition of the accounts topic, in order, so a rule over that scope (a unique
// e-mail, a slug unique per project, a version per variant) is decided on the whole ordered history.
// The one place these keys are spelled; the command side builds every event's key from here.

/** A user account: the lowercased e-mail (uniqueness is decided on one partition). */
export const userKey = (email: string): string => `user:${email.toLowerCase()}`;
/** An organization's own events: its life, settings, roles, projects, SSO providers, invitations. */
export const organizationKey = (organizationId: string): string => `organization:${organizationId}`;
/** An organization's plan and subscription (the billing aggregate shares the organization's order). */
export const billingKey = organizationKey;
/** A project's API keys. */
export const apiKeysKey = (projectId: string): string => `project:${projectId}:keys`;
/** A domain claim: the name as the organization wrote it. */
export const domainKey = (domain: string): string => `domain:${domain}`;
/** A project's saved queries (slugs unique per project, each variant's version order). */
export const savedQueriesKey = (projectId: string): string => `project:${projectId}:queries`;
/** A project's secrets in the vault. */
export const secretsKey = (projectId: string): string => `project:${projectId}:secrets`;
/** A project's webhook subscriptions. */
export const webhooksKey = (projectId: string): string => `project:${projectId}:webhooks`;
/** A project's applications, their variants and revisions. */
export const applicationsKey = (projectId: string): string => `project:${projectId}:applications`;
/** A project's testsets. */
export const testsetsKey = (projectId: string): string => `project:${projectId}:testsets`;
/** A project's human evaluations. */
export const evaluationsKey = (projectId: string): string => `project:${projectId}:evaluations`;
/** A project's redaction policy. */
export const redactionKey = (projectId: string): string => `project:${projectId.toLowerCase()}:redaction`;
