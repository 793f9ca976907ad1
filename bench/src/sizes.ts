/** gzip sizes of built files, as the servers send them (server/src/static-server.ts). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** The servers gzip text of at least this many bytes, at zlib's default level. */
const MIN_GZIP_BYTES = 1024;

export function servedBytes(file: string): number {
  const content = readFileSync(file);
  return content.length >= MIN_GZIP_BYTES ? gzipSync(content).length : content.length;
}

export interface SizedFile {
  name: string;
  bytes: number;
}

/** The served size of each URL's file in a built folder, by its path. */
export function sizesOf(urls: readonly string[], distDir: string): SizedFile[] {
  return [...new Set(urls)].map((url) => {
    const name = new URL(url).pathname.replace(/^\//, '');
    return { name, bytes: servedBytes(join(distDir, name)) };
  });
}
