export const METHODS: readonly string[];
export function keyPaths(value: unknown): Record<string, string>;
