// Reads of the accounts projection (Postgres) shared by the command side (decisions, answers after
// read-your-writes) and the query side (GETs). Only projector-accounts writes these tables.
export { readOrganization, readProvider, listProviders, memberRole, countVerifiedDomains } from './organizations.ts';
export { listApiKeys, readApiKey } from './api-keys.ts';
