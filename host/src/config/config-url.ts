/** Where a page without the configuration written into it fetches it. */
export const CONFIG_URL = '/config.json';
