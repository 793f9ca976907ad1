/**
 * What the site file names on disk, checked before it is written: the folders nginx serves (the
 * host's build, each registered remote's deployed folder) and the certificate with its key. nginx
 * itself would start without a folder (and answer 404 for everything in it) and refuses a bad
 * certificate only at its next reload, taking the whole server down with it.
 */
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { join } from 'node:path';
import { REMOTE_NAMES } from 'shared/remotes';

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** What is wrong with a folder, or nothing. */
function folderProblem(name: string, path: string): string | undefined {
  if (!isFolder(path)) return `${name}: no folder ${path}`;
  try {
    accessSync(path, constants.R_OK | constants.X_OK);
    return undefined;
  } catch {
    return `${name}: ${path} cannot be read`;
  }
}

/** The host's built folder and the remotes' folder, and in it one deployed folder per registered remote. */
export function folderProblems(hostDist: string, remotesDir: string): string[] {
  const problems = [folderProblem('GIFT_BOX_HOST_DIST', hostDist), folderProblem('GIFT_BOX_REMOTES_DIR', remotesDir)];
  if (isFolder(remotesDir)) {
    const missing = REMOTE_NAMES.filter((remote) => !isFolder(join(remotesDir, remote)));
    if (missing.length > 0) {
      problems.push(
        `GIFT_BOX_REMOTES_DIR: no deployed folder for ${missing.join(', ')} in ${remotesDir} ` +
          `(npm run deploy -w remote-<name> -- ${join(remotesDir, '<name>')})`,
      );
    }
  }
  return problems.filter((problem): problem is string => problem !== undefined);
}

function readable(name: string, path: string, problems: string[]): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    problems.push(`${name}: cannot read ${path} (${code === 'ENOENT' ? 'no such file' : code})`);
    return undefined;
  }
}

/** The certificate and its key: readable, a PEM certificate, a private key, and the pair matching. */
export function certificateProblems(certificateFile: string, keyFile: string): string[] {
  const problems: string[] = [];
  const certificatePem = readable('GIFT_BOX_TLS_CERTIFICATE', certificateFile, problems);
  const keyPem = readable('GIFT_BOX_TLS_CERTIFICATE_KEY', keyFile, problems);
  let certificate: X509Certificate | undefined;
  let key: ReturnType<typeof createPrivateKey> | undefined;
  if (certificatePem !== undefined) {
    try {
      certificate = new X509Certificate(certificatePem);
    } catch {
      problems.push(`GIFT_BOX_TLS_CERTIFICATE: ${certificateFile} holds no PEM certificate`);
    }
  }
  if (keyPem !== undefined) {
    try {
      key = createPrivateKey(keyPem);
    } catch {
      problems.push(
        `GIFT_BOX_TLS_CERTIFICATE_KEY: ${keyFile} holds no private key nginx can read (PEM, no passphrase)`,
      );
    }
  }
  if (certificate && key && !certificate.checkPrivateKey(key)) {
    problems.push(`GIFT_BOX_TLS_CERTIFICATE_KEY: ${keyFile} is not the key of the certificate ${certificateFile}`);
  }
  return problems;
}
