/** Compile-time proof that a zod schema and the contract's TypeScript type describe the same values. */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export type Expect<T extends true> = T;
