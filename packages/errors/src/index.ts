export { AppError, invalid, unauthenticated, notFound, conflict, unavailable, badGateway } from './app-error.ts';
export type { ErrorKind, AppErrorOptions } from './app-error.ts';
export { ok, fail } from './result.ts';
export type { Result } from './result.ts';
export { backoffMs, sleep } from './backoff.ts';
export { isNetworkError, isNetworkErrorCode, isProgramError, classifyUnknownError, failureReason } from './failure-class.ts';
export type { FailureClass, FailureClassifier } from './failure-class.ts';
