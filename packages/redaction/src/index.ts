export { BUILT_IN_DETECTORS, DETECTOR_NAMES, DETECTOR_ORDER, type DetectorName, type Detector } from './detectors.ts';
export { luhnValid, ibanValid } from './checksums.ts';
export { compileLinearPattern, MAX_PATTERN_LENGTH, type LinearPattern } from './linear-pattern.ts';
export { redactionPolicySchema, REDACTION_SCOPES, MAX_CUSTOM_PATTERNS, type RedactionPolicy, type RedactionScope, type CustomPattern, type VersionedPolicy } from './policy.ts';
export { compilePolicy, REDACTION_ATTRIBUTE, type Redactor, type CompiledPolicy } from './redactor.ts';
export { RedactorCache } from './redactor-cache.ts';
