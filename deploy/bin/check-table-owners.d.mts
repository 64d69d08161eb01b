// Types of check-table-owners.mjs for the TypeScript test that imports it.
export interface TableOwners { [table: string]: { owner: string; alsoNamedBy?: string[] } }
export declare function tablesOfMigrations(root?: string): string[];
export declare function modulesNaming(tables: string[], root?: string): Record<string, string[]>;
export declare function checkOwners(declared: TableOwners, found: Record<string, string[]>): string[];
