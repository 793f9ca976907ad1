/** Set at build time by webpack.config.base.ts. */
declare const __BUILD_ID__: string;
declare const __BUILD_TIMESTAMP__: number;

/** Stylesheets are injected by style-loader; importing one has only that effect. */
declare module '*.css';
