// The shared modules are eager: the app starts from this chunk without waiting for another.
import { start } from './bootstrap';
import { readRuntimeConfig } from './config/fetch-config';

void start(readRuntimeConfig());
