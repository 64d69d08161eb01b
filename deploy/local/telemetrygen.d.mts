// Types of telemetrygen.mjs for the TypeScript tests that import it.
export declare const TELEMETRYGEN_VERSION: string;
export declare const telemetrygenBinary: string;
export declare function goCommand(): string | null;
export declare function ensureTelemetrygen(opts?: { log?: (line: string) => void }): string | null;
