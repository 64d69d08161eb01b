export { buildOpenApiDocument, openApiJson, openApiPath } from './openapi-document.ts';
export type { DocumentOptions, JsonObject, OpenApiDocument } from './openapi-document.ts';
export { docsRoutes } from './docs-routes.ts';
export { OPERATION_SCHEMAS } from './operation-schemas.ts';
export type { OperationSchemas } from './operation-schemas.ts';
export { SECURITY_SCHEMES, securityOf } from './security.ts';
export type { SchemeName, SecurityRequirement } from './security.ts';
