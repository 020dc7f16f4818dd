// The planted bugs of mutants.mjs, as the unit test that keeps their patches applicable reads them.
export type Patch = { file: string; search: string; replace: string };
export type Mutant = { name: string; detail: string; patches: Patch[] };
export declare const MUTANTS: Mutant[];
