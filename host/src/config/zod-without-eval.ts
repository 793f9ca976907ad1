/**
 * The pages' Content-Security-Policy allows no eval (server/security-headers.ts). zod compiles a
 * faster parser for an object schema with `new Function` where it may, and finds out whether it
 * may by trying, as the schema is made: the browser refuses, and reports a violation even though
 * zod catches the error. `jitless` skips both. zod keeps its settings on `globalThis`, in the
 * object below, which every copy of zod takes as it is when it loads (zod/v4/core/core.js): so
 * this covers every copy of zod on the page, a remote's own and the configuration schema's
 * chunk included (load-config.ts), without bringing zod into the host's first script. The entry
 * runs it before anything that may load zod; zod-without-eval.test.ts checks it against zod.
 */
interface ZodGlobal {
  __zod_globalConfig?: { jitless?: boolean };
}

const zodGlobal = globalThis as ZodGlobal;
// The object itself, should a copy of zod have made it already: that copy reads this one.
(zodGlobal.__zod_globalConfig ??= {}).jitless = true;
