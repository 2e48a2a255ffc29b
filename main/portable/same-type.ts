// Compile-time equality of two types, for checks that tie a declaration to another that must
// stay in step with it (a schema's output and its domain type, a method list and its schemas).
// `const check: Same<A, B> = true` fails to compile as soon as either side changes alone.

/** True when A and B are assignable both ways, else false. */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
