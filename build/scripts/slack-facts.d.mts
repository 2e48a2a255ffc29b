export const METHODS: readonly string[];
/** Key paths and value types of a JSON value; keys `idKey` matches are written `*`. */
export function keyPaths(value: unknown, idKey?: RegExp): Record<string, string>;
