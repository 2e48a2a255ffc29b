// Types for setup-checks.mjs (plain Node, so the set-up runs before anything is built).
export function satisfiesEngines(version: string, range: string): boolean;
export function describeEngines(range: string): string;
export function nodeVersionProblem(version: string, range: string, platform: string): string | null;
export function debianPackages(mode: 'app' | 'test', osRelease?: string): string[];
export function otherLinuxAdvice(mode: 'app' | 'test'): string;
