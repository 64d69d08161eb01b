// Types of otelcol.mjs for the TypeScript tests and benches that import it.
export declare const OTELCOL_VERSION: string;
export declare const otelcolBinary: string;
export declare function ensureCollector(dist: { name: string; manifest: string }, opts?: { log?: (line: string) => void }): string | null;
export declare function ensureOtelcol(opts?: { log?: (line: string) => void }): string | null;
