/**
 * The pages' Content-Security-Policy allows no eval (server/security-headers.ts). zod compiles a
 * faster parser for an object schema with `new Function` where it may, and finds out whether it
 * may by trying, as the schema is made: the browser refuses, and reports a violation even though
 * zod catches the error. `jitless` skips both. zod keeps its settings on `globalThis`, so this
 * covers every copy of zod on the page, a remote's own included; the entry imports it before
 * anything that makes a schema.
 */
import { config } from 'zod/mini';

config({ jitless: true });
