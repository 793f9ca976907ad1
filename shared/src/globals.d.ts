/** Set at build time by webpack.config.base.ts. */
declare const __BUILD_ID__: string;
declare const __BUILD_TIMESTAMP__: number;
/** The API's port the build was made for (API_PORT, 3004 by default). */
declare const __API_PORT__: number;

/** Stylesheets are injected by style-loader; importing one has only that effect. */
declare module '*.css';
