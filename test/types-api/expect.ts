// Compile-time assertions for the public-API type tests (test/types-api.test.ts type-checks the
// files beside this one). Nothing here does anything at run time.

/** True only when A and B are the same type (not merely assignable either way). */
export type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;

/** `expectType<Equal<X, Y>>()` fails to compile unless X and Y are identical. */
export function expectType<T extends true>(): T | void {}
