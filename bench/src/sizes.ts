/** gzip sizes of built files, as the servers send them: text of MIN_COMPRESSED_BYTES and more, at zlib's default level. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { MIN_COMPRESSED_BYTES } from 'server/encoding';

export function servedBytes(file: string): number {
  const content = readFileSync(file);
  return content.length >= MIN_COMPRESSED_BYTES ? gzipSync(content).length : content.length;
}

export interface SizedFile {
  name: string;
  bytes: number;
}

export function sizesOf(urls: readonly string[], distDir: string): SizedFile[] {
  return [...new Set(urls)].map((url) => {
    const name = new URL(url).pathname.replace(/^\//, '');
    return { name, bytes: servedBytes(join(distDir, name)) };
  });
}
