// The vault's own logic: envelope encryption and the credential rules of secret data.
export { DATA_KEY_BYTES, newDataKey, sealData, openData, wrapDataKey, unwrapDataKey, type SecretAddress } from './envelope.ts';
export { valueOf, stringValueOf, isConfigured, withoutCredentials, publicData, preview, mergeUpdate, isCredentialExtra, type UpdateProblem } from './credentials.ts';
export { openStoredSecret, type StoredSecretData } from './open-stored.ts';
