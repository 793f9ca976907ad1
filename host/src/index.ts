// The host's shared modules are eager (webpack.config.base.ts): React, the router and the rest
// are in this entry chunk, so the app starts from it without waiting for another. The runtime
// configuration is read first (inline in the page, or fetched at once in development).
// First of all, before any module makes a schema: zod without eval, as the pages' policy wants.
import './config/zod-without-eval';
import { start } from './bootstrap';
import { fetchRuntimeConfig } from './config/fetch-config';

void start(fetchRuntimeConfig());
