/**
 * What nginx answers itself when no process behind it does (502, 504): the app's error page, or
 * the API's error shape under /api/, held in the site file so they need nothing on disk.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ApiErrorBody } from 'shared/api/contract';
import { reasonPhrase } from 'shared/http-error';

export const GATEWAY_STATUSES = [502, 504] as const;
type GatewayStatus = (typeof GATEWAY_STATUSES)[number];

export const GATEWAY_MESSAGES: Record<GatewayStatus, string> = {
  502: 'Gift Box is briefly unavailable. Try again in a moment.',
  504: 'Gift Box took too long to answer. Try again in a moment.',
};

const THEME_FILE = join(__dirname, '..', '..', 'shared', 'src', 'browser', 'theme', 'theme.css');

function themeTokens(): string {
  const theme = readFileSync(THEME_FILE, 'utf8');
  const tokens = theme.split('/* The few building blocks')[0] ?? '';
  return tokens.replace(/\/\*[\s\S]*?\*\//g, '');
}

const PAGE_STYLES = `
body { margin: 0; }
.p-error { max-width: 640px; margin: var(--p-space-5) auto; padding: var(--p-space-4); text-align: center; }
.p-error__code { margin: 0; font-size: clamp(3rem, 12vw, 5rem); font-weight: 800; line-height: 1; color: var(--p-color-primary); }
.p-error__title { margin: var(--p-space-2) 0; font-size: 1.5rem; }
.p-error__message { color: var(--p-color-muted); }
.p-error__actions { display: flex; flex-wrap: wrap; gap: var(--p-space-2); justify-content: center; margin-top: var(--p-space-4); }
.p-button { display: inline-flex; align-items: center; min-height: 44px; padding: 0 var(--p-space-4); border: 1px solid var(--p-color-border); border-radius: var(--p-radius-small); background: var(--p-color-surface); color: var(--p-color-text); font-weight: 600; text-decoration: none; }
.p-button--primary { background: var(--p-color-primary); border-color: var(--p-color-primary); color: var(--p-color-primary-contrast); }
`;

export function gatewayPage(status: GatewayStatus): string {
  const styles = (themeTokens() + PAGE_STYLES).replace(/\s+/g, ' ').trim();
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${status} Internal Server Error - Gift Box</title><style>${styles}</style></head><body>`,
    `<main><section class="p-error" role="alert" aria-labelledby="p-error-title" data-status="${status}">`,
    `<p class="p-error__code">${status}</p><h1 id="p-error-title" class="p-error__title">Internal Server Error</h1>`,
    `<p class="p-error__message">${GATEWAY_MESSAGES[status]}</p><div class="p-error__actions">`,
    '<a class="p-button p-button--primary" href="">Try again</a><a class="p-button" href="/">Back to home</a>',
    '</div></section></main></body></html>',
  ].join('');
}

export function gatewayApiBody(status: GatewayStatus): string {
  const body: ApiErrorBody = {
    statusCode: status,
    statusMessage: reasonPhrase(status),
    message: GATEWAY_MESSAGES[status],
  };
  return JSON.stringify(body);
}

/** No quote or backslash ends it, no `$` names a variable. */
function quoted(text: string): string {
  if (text.includes('$')) throw new Error('an error page must not contain $: nginx would read a variable');
  return `'${text.replace(/[\\']/g, (character) => `\\${character}`)}'`;
}

export function gatewayLocations(): string {
  return GATEWAY_STATUSES.flatMap((status) => [
    `    location @gift_box_page_${status} {`,
    '        default_type text/html;',
    '        add_header Cache-Control "no-store" always;',
    `        add_header Content-Security-Policy "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'" always;`,
    `        return ${status} ${quoted(gatewayPage(status))};`,
    '    }',
    `    location @gift_box_api_${status} {`,
    '        default_type application/json;',
    '        add_header Cache-Control "no-store" always;',
    `        return ${status} ${quoted(gatewayApiBody(status))};`,
    '    }',
  ]).join('\n');
}
