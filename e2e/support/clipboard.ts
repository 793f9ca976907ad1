/**
 * What the browser's clipboard holds, read the way another site's page would read it. The site's
 * own pages cannot read it: their Permissions-Policy denies `clipboard-read`, which the app never
 * uses (host/server/security-headers.ts). The reader is a page of the API's origin, which sends
 * no such policy, given the permission for its origin.
 */
import type { BrowserContext } from '@playwright/test';
import { originOf } from './test-env';

export async function clipboardText(context: BrowserContext): Promise<string> {
  const origin = originOf('api');
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  const reader = await context.newPage();
  try {
    await reader.goto(`${origin}/api/health`);
    await reader.bringToFront();
    return await reader.evaluate(() => navigator.clipboard.readText());
  } finally {
    await reader.close();
  }
}
