/**
 * Where a deployed folder keeps what the deploy commands write besides the build's own files. A
 * remote's folder is its own origin's (or path's): `builds/`. The host's folder is the whole
 * site's root, whose paths are its pages', so its build files live under `_app/builds/`, where
 * its build puts them and its pages' version check reads them.
 */
import { basename } from 'node:path';
import { BUILDS_DIR, DEPLOYMENT_FILE_NAME, HISTORY_FILE_NAME, HOST_BUILDS_DIR, META_DIR_NAME } from 'shared/deployment';

export interface DeployLayout {
  /** The folder of `latest.json` (the deployment), `history.json`, `meta/` and each build's whole copy. */
  buildsDir: string;
  /**
   * The files that point at the others (content-hashed, written first), swapped after them in
   * this order; the deployment's `latest.json` after them.
   */
  entryFiles: readonly string[];
  /** Built for local work beside the build, never published (a remote's standalone shell). */
  devShellFiles: readonly string[];
}

/**
 * A remote's. Its standalone development shell (`index.html`, a page that talks to whichever API
 * its address names, `?api=`) is kept by a build for local work and never published.
 */
export const REMOTE_LAYOUT: DeployLayout = {
  buildsDir: BUILDS_DIR,
  entryFiles: ['remoteEntry.js', 'mf-stats.json', 'mf-manifest.json'],
  devShellFiles: ['index.html'],
};

/**
 * The host's: its `index.html` is the pages' template, which the host's server renders every page
 * from, so it is published, and swapped last of the files that name the hashed ones.
 */
export const HOST_LAYOUT: DeployLayout = {
  buildsDir: HOST_BUILDS_DIR,
  entryFiles: ['remoteEntry.js', 'mf-stats.json', 'mf-manifest.json', 'index.html'],
  devShellFiles: [],
};

/** The package whose deploy folder has the host's layout. */
export const HOST_PACKAGE = 'host';

/** The layout of a package's deploy folder, by the package's folder. */
export function layoutOfPackage(packageDir: string): DeployLayout {
  return basename(packageDir) === HOST_PACKAGE ? HOST_LAYOUT : REMOTE_LAYOUT;
}

export const latestFileOf = (layout: DeployLayout): string => `${layout.buildsDir}/${DEPLOYMENT_FILE_NAME}`;
export const historyFileOf = (layout: DeployLayout): string => `${layout.buildsDir}/${HISTORY_FILE_NAME}`;
export const metaDirOf = (layout: DeployLayout): string => `${layout.buildsDir}/${META_DIR_NAME}`;
/** Where a deploy keeps a build whole: `<buildsDir>/{id}`. */
export const copyFolderOf = (id: string, layout: DeployLayout): string => `${layout.buildsDir}/${id}`;
