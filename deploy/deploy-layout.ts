/**
 * Where a deployed folder keeps what the deploy commands write. The host's folder is the site's
 * root, whose paths are its pages', so its build files live under `_app/builds/`.
 */
import { basename } from 'node:path';
import { BUILDS_DIR, DEPLOYMENT_FILE_NAME, HISTORY_FILE_NAME, HOST_BUILDS_DIR, META_DIR_NAME } from 'shared/deployment';

export interface DeployLayout {
  buildsDir: string;
  /** Written after the hashed files, in this order; `latest.json` last. */
  entryFiles: readonly string[];
  devShellFiles: readonly string[];
}

export const REMOTE_LAYOUT: DeployLayout = {
  buildsDir: BUILDS_DIR,
  entryFiles: ['remoteEntry.js', 'mf-stats.json', 'mf-manifest.json'],
  devShellFiles: ['index.html'],
};

/** The host's `index.html` is the pages' template, so it is published. */
export const HOST_LAYOUT: DeployLayout = {
  buildsDir: HOST_BUILDS_DIR,
  entryFiles: ['remoteEntry.js', 'mf-stats.json', 'mf-manifest.json', 'index.html'],
  devShellFiles: [],
};

export const HOST_PACKAGE = 'host';

export function layoutOfPackage(packageDir: string): DeployLayout {
  return basename(packageDir) === HOST_PACKAGE ? HOST_LAYOUT : REMOTE_LAYOUT;
}

export const latestFileOf = (layout: DeployLayout): string => `${layout.buildsDir}/${DEPLOYMENT_FILE_NAME}`;
export const historyFileOf = (layout: DeployLayout): string => `${layout.buildsDir}/${HISTORY_FILE_NAME}`;
export const metaDirOf = (layout: DeployLayout): string => `${layout.buildsDir}/${META_DIR_NAME}`;
export const copyFolderOf = (id: string, layout: DeployLayout): string => `${layout.buildsDir}/${id}`;
