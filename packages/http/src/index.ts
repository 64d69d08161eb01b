export { createHttpApp, mountSide, listen } from './http-app.ts';
export type { Handlers, HttpAppOptions, MountOptions, RunningServer } from './http-app.ts';
export { validate, RequestValidationError, issuesOf } from './validation.ts';
export type { ValidationIssue } from './validation.ts';
export { errorHandler, statusOf } from './error-handler.ts';
export { createReadiness, mountHealth } from './health.ts';
export type { Readiness } from './health.ts';
export { requestContext } from './request-context.ts';
export { readBoundedBody, inflateBounded, tooLarge } from './bounded-body.ts';
