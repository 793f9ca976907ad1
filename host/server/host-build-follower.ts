/** Follows the host's folder: a build of this code is served without a restart; one of other code is said once to need one. */
import { join } from 'node:path';
import { DeploymentPoller } from 'server/deployment-poller';
import { serverLog } from 'server/log';
import {
  chooseHostBuild,
  HOST_BUILD_FILE,
  HostBuildsError,
  replacedMessage,
  restartMessage,
  type HostBuild,
  type HostBuildsState,
} from './host-build-choice';

const defaultLog = (message: string): void => serverLog().info(message);
const defaultWarn = (message: string): void => serverLog().warn(message);

export interface HostBuildFollowerOptions {
  folder: string;
  /** None: whatever the folder publishes is served. */
  codeVersion?: string;
  log?: (message: string) => void;
  warn?: (message: string) => void;
}

export interface PublishedHealth {
  build: string;
  codeVersion?: string;
  /** False: it needs a restart with its code. */
  served: boolean;
}

export class HostBuildFollower {
  private readonly poller: DeploymentPoller;
  private toldRestart: string | undefined;
  private replaced: string | undefined;

  private constructor(
    private readonly options: HostBuildFollowerOptions,
    private state: HostBuildsState,
  ) {
    // A read that fails leaves the build served as it is: the next one tries again.
    this.poller = new DeploymentPoller({
      parts: [options.folder],
      read: () => this.read(),
      onFailure: (folder, reason) => (options.warn ?? defaultWarn)(`reading ${folder} failed: ${reason}`),
    });
  }

  /** Throws HostBuildsError when the folder holds no build of this server's code. */
  static async open(options: HostBuildFollowerOptions): Promise<HostBuildFollower> {
    const follower = new HostBuildFollower(options, await chooseHostBuild(options.folder, options.codeVersion));
    follower.tellRestart();
    return follower;
  }

  root(): string {
    return this.state.served.root;
  }

  buildFile(): string {
    return join(this.state.served.root, HOST_BUILD_FILE);
  }

  served(): HostBuild {
    return this.state.served;
  }

  /** Why no page can be served: a dist/ rebuilt under its running server. */
  unservable(): string | undefined {
    return this.replaced;
  }

  published(): PublishedHealth {
    const { published, served } = this.state;
    return {
      build: published.id,
      ...(published.codeVersion ? { codeVersion: published.codeVersion } : {}),
      served: published.id === served.id,
    };
  }

  /** Never rejects. */
  refresh(): Promise<void> {
    return this.poller.refresh(this.options.folder);
  }

  start(intervalMs: number): void {
    this.poller.start(intervalMs);
  }

  stop(): void {
    this.poller.stop();
  }

  private async read(): Promise<void> {
    const { folder, codeVersion, log = defaultLog, warn = defaultWarn } = this.options;
    const before = this.state;
    try {
      this.state = await chooseHostBuild(folder, codeVersion);
    } catch (error) {
      if (!(error instanceof HostBuildsError)) throw error;
      // Nothing of this server's code kept whole there any more: the build it serves stays.
      if (error.published) this.state = { served: before.served, published: error.published };
      // Unless its files were the folder's own, now another build's: then there is nothing to serve.
      const replaced = error.published && error.published.id !== before.served.id && before.served.root === folder;
      this.replaced = replaced ? replacedMessage(folder, this.state, codeVersion) : undefined;
      const told = error.published?.id ?? error.message;
      if (this.toldRestart !== told)
        warn(this.replaced ?? `${error.message}; serving build ${before.served.id} meanwhile`);
      this.toldRestart = told;
      return;
    }
    this.replaced = undefined;
    if (this.state.served.id !== before.served.id || this.state.served.root !== before.served.root) {
      log(`serving build ${this.state.served.id}, published in ${folder}`);
    }
    this.tellRestart();
  }

  private tellRestart(): void {
    const { published, served } = this.state;
    if (published.id === served.id) {
      this.toldRestart = undefined;
      return;
    }
    if (this.toldRestart === published.id) return;
    this.toldRestart = published.id;
    (this.options.warn ?? defaultWarn)(`${restartMessage(this.options.folder, this.state, this.options.codeVersion)}`);
  }
}
