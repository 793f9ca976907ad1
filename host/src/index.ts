// The runtime configuration is fetched at once, in parallel with the shared modules the app
// needs; the async import is the boundary that lets those shared singletons be negotiated first.
import { fetchRuntimeConfig } from './config/fetch-config';

const configResponse = fetchRuntimeConfig();
void import('./bootstrap').then(({ start }) => start(configResponse));
