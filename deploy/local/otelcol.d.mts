// Types of otelcol.mjs for the TypeScript tests that import it.
export declare const OTELCOL_VERSION: string;
export declare const otelcolBinary: string;
export declare function ensureOtelcol(opts?: { log?: (line: string) => void }): string | null;
