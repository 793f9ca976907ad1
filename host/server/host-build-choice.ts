/**
 * Which build of the host this server serves from its folder (HOST_STATIC_ROOT, else its dist/):
 * only one of its own code version, since its code renders the build's index.html; from the
 * build's whole copy when the deploy kept one (docs/decisions/0041-publishing-the-host.md).
 */
import { existsSync, statSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { EnvError, type Reader } from 'server/env';
import { HOST_BUILDS_DIR, HOST_DEPLOYMENT_FILE, isBuildId, META_DIR_NAME } from 'shared/deployment';

/** Whose id `/healthz` reports. */
export const HOST_BUILD_FILE = HOST_DEPLOYMENT_FILE;

export interface HostBuild {
  id: string;
  timestamp: number;
  codeVersion?: string;
}

export interface ServedBuild extends HostBuild {
  root: string;
}

export interface HostBuildsState {
  served: ServedBuild;
  published: HostBuild;
}

export class HostBuildsError extends Error {
  constructor(
    message: string,
    readonly published?: HostBuild,
  ) {
    super(message);
    this.name = 'HostBuildsError';
  }
}

/** An existing folder, absolute or from the working folder. */
export const staticRoot: Reader<string | undefined> = (raw, name) => {
  if (raw === undefined || raw.trim() === '') return undefined;
  const folder = resolve(raw.trim());
  if (!statSync(folder, { throwIfNoEntry: false })?.isDirectory()) {
    throw new EnvError(`${name} must name the folder the host is published into, got "${raw}" (no such folder)`);
  }
  return folder;
};

async function readBuildFile(path: string): Promise<HostBuild | undefined> {
  try {
    const raw = JSON.parse(await readFile(path, 'utf8')) as Partial<Record<keyof HostBuild, unknown>> | null;
    if (typeof raw?.id !== 'string' || raw.id === '') return undefined;
    return {
      id: raw.id,
      timestamp: typeof raw.timestamp === 'number' ? raw.timestamp : 0,
      ...(typeof raw.codeVersion === 'string' ? { codeVersion: raw.codeVersion } : {}),
    };
  } catch {
    return undefined;
  }
}

/** Whole: its own `latest.json` names it and its template is there. */
async function copyOf(folder: string, id: string): Promise<string | undefined> {
  if (!isBuildId(id)) return undefined;
  const copy = join(folder, HOST_BUILDS_DIR, id);
  const own = await readBuildFile(join(copy, HOST_BUILD_FILE));
  return own?.id === id && existsSync(join(copy, 'index.html')) ? copy : undefined;
}

async function newestOfCode(folder: string, codeVersion: string): Promise<ServedBuild | undefined> {
  let names: string[];
  try {
    names = await readdir(join(folder, HOST_BUILDS_DIR, META_DIR_NAME));
  } catch {
    return undefined;
  }
  const metas = await Promise.all(
    names
      .filter((name) => name.endsWith('.json'))
      .map((name) => readBuildFile(join(folder, HOST_BUILDS_DIR, META_DIR_NAME, name))),
  );
  const ours = metas
    .filter((meta): meta is HostBuild => meta?.codeVersion === codeVersion)
    .sort((a, b) => b.timestamp - a.timestamp);
  for (const build of ours) {
    const root = await copyOf(folder, build.id);
    if (root) return { ...build, root };
  }
  return undefined;
}

/** Meta files read once per published build; later refreshes only check the copy is still there. */
const newestWhilePublished = new Map<string, { published: string; build: ServedBuild }>();
async function newestOfCodeWhile(
  folder: string,
  codeVersion: string,
  published: string,
): Promise<ServedBuild | undefined> {
  const key = `${folder}\0${codeVersion}`;
  const known = newestWhilePublished.get(key);
  if (known?.published === published && (await copyOf(folder, known.build.id)) === known.build.root) return known.build;
  const build = await newestOfCode(folder, codeVersion);
  if (build) newestWhilePublished.set(key, { published, build });
  else newestWhilePublished.delete(key);
  return build;
}

const versionOf = (build: HostBuild) => (build.codeVersion ? `code version ${build.codeVersion}` : 'no code version');

/** Throws HostBuildsError when nothing of its code is there. */
export async function chooseHostBuild(folder: string, codeVersion: string | undefined): Promise<HostBuildsState> {
  const published = await readBuildFile(join(folder, HOST_BUILD_FILE));
  if (!published) {
    throw new HostBuildsError(
      `${join(folder, HOST_BUILD_FILE)} is missing or names no build: publish the host there ` +
        '(npm run deploy -w host -- <folder>), or build it (npm run build -w host) when serving its dist/',
    );
  }
  if (codeVersion === undefined || published.codeVersion === codeVersion) {
    return { served: { ...published, root: (await copyOf(folder, published.id)) ?? folder }, published };
  }
  const ours = await newestOfCodeWhile(folder, codeVersion, published.id);
  if (ours) return { served: ours, published };
  throw new HostBuildsError(
    `build ${published.id}, published in ${folder}, is of ${versionOf(published)}; this server is of code ` +
      `version ${codeVersion}, and the folder keeps no build of it whole: start the host's server built with ` +
      `build ${published.id} (the same npm run build), or roll the folder back to a build of this server's code ` +
      '(npm run rollback -w host)',
    published,
  );
}

export function restartMessage(folder: string, state: HostBuildsState, codeVersion: string | undefined): string {
  const { published, served } = state;
  return (
    `build ${published.id}, published in ${folder}, is of ${versionOf(published)} and this server of code ` +
    `version ${codeVersion ?? '(none)'}: restart the host's server with the code built with it to serve it; ` +
    `serving build ${served.id}, the newest of this server's code, meanwhile`
  );
}

/** Its own files replaced by another code's build: the new scripts would read a configuration its code writes. */
export function replacedMessage(folder: string, state: HostBuildsState, codeVersion: string | undefined): string {
  const { published, served } = state;
  return (
    `build ${published.id}, of ${versionOf(published)}, replaced build ${served.id} in ${folder}, which keeps no ` +
    `copy of it: this server, of code version ${codeVersion ?? '(none)'}, has no build left to serve, and its ` +
    "pages answer 503 until the host's server is restarted with the code built with it"
  );
}
