// The shared modules are eager: the app starts from this chunk without waiting for another.
// Before any module makes a schema.
import './config/zod-without-eval';
import { start } from './bootstrap';
import { fetchRuntimeConfig } from './config/fetch-config';

void start(fetchRuntimeConfig());
