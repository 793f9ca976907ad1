/** Builds the API application without listening; `index.ts` listens. */
export {};
