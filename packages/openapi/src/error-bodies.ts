// The error bodies packages/http/src/error-handler.ts renders, as JSON Schema: `{"detail": …}` for
// every error (a message, or an object some rejections carry, plus any details spread beside it),
// and the spec's HTTPValidationError for 422 (a rule's refusal of a well-formed value is a plain detail).

export const ERROR_SCHEMAS = {
  ValidationIssue: {
    type: 'object',
    required: ['loc', 'msg', 'type'],
    properties: {
      loc: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'integer' }] } },
      msg: { type: 'string' },
      type: { type: 'string' },
    },
  },
  HTTPValidationError: {
    type: 'object',
    required: ['detail'],
    properties: { detail: { type: 'array', items: { $ref: '#/components/schemas/ValidationIssue' } } },
    description: 'The body failed validation (422): one issue per problem, `loc` starting with `body`, `query` or `path`.',
  },
  UnprocessableBody: {
    anyOf: [{ $ref: '#/components/schemas/HTTPValidationError' }, { $ref: '#/components/schemas/ErrorBody' }],
    description: 'A 422: the validation shape when the body, query or path fails its schema; `{"detail": "<message>"}` when a well-formed value is refused by a rule (e.g. a provider kind that cannot be tested).',
  },
  ErrorBody: {
    type: 'object',
    required: ['detail'],
    properties: {
      detail: {
        anyOf: [{ type: 'string' }, { type: 'object' }, { type: 'array' }],
        description: 'What went wrong. 5xx bodies are opaque (the cause is in the server log).',
      },
    },
    description: 'Any error but 422. A rejection may add fields beside `detail` (e.g. its limits).',
  },
  BillingErrorBody: {
    type: 'object',
    required: ['status', 'message'],
    properties: { status: { const: 'error' }, message: { type: 'string' } },
    description: "The billing routes' own refusals keep the reference's shape (`{\"status\":\"error\",\"message\":…}`).",
  },
} as const;

/** Every status the error handler and the routes' own rejections answer with, and what each means. */
export const ERROR_STATUSES: Readonly<Record<string, string>> = {
  400: 'The request is malformed or refused by a rule.',
  401: 'No valid credential.',
  403: 'The credential does not allow this (permission, plan entitlement or organization policy).',
  404: 'Not found (or not visible to the caller).',
  405: 'Not allowed on this resource.',
  409: 'Conflicts with the current state.',
  410: 'Gone (e.g. an expired invitation).',
  413: 'The request or the result is too large.',
  415: 'Unsupported media type.',
  422: 'The body, query or path failed validation, or the body is well-formed but cannot be accepted.',
  429: 'Rate limit or quota exceeded; honour Retry-After.',
  431: 'The request line and headers exceed the server limit (answered by the HTTP server before any route runs, with the same error body).',
  500: 'Internal error.',
  502: 'An upstream the request depends on failed.',
  503: 'A backing store or dependency is not available; retry after Retry-After.',
};
