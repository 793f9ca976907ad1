/** The pages' policy allows no eval: zod's trial `new Function` would report a violation. */
import { config } from 'zod/mini';

config({ jitless: true });
