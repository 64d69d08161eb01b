// Types of otel-python.mjs for the TypeScript tests that import it.
export declare const OTEL_PYTHON_VERSION: string;
export declare function ensureOtelPythonGrpc(opts?: { log?: (line: string) => void }): string;
