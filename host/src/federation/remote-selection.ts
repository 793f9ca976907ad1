/** Which manifest, and so which build, each configured remote is loaded from now. */
import type { RuntimeConfig } from 'shared/runtime-config';
import { configuredBuild } from './remote-build-id';
import { brokenBuild, sessionStore } from './tab-memory';

export interface RemoteSource {
  entry: string;
  build: string | undefined;
}

export class RemoteSelection {
  readonly current = new Map<string, RemoteSource>();

  constructor(private readonly config: RuntimeConfig) {
    for (const [name, entry] of Object.entries(config.remotes) as [string, string][]) {
      this.current.set(name, this.startingSource(name, entry));
    }
  }

  /** Its fallback when this tab found the configured build broken lately. */
  private startingSource(remote: string, entry: string): RemoteSource {
    const own = { entry, build: configuredBuild(this.config, remote, entry) };
    const fallback = this.fallbackOf(remote);
    const broken = own.build !== undefined && brokenBuild(sessionStore, remote, Date.now()) === own.build;
    return fallback && broken ? fallback : own;
  }

  fallbackOf(remote: string): RemoteSource | undefined {
    const entry = this.config.remoteFallbacks?.[remote];
    return entry === undefined ? undefined : { entry, build: configuredBuild(this.config, remote, entry) };
  }

  entryOf(remote: string): string {
    const entry = this.current.get(remote)?.entry ?? this.config.remotes[remote];
    if (entry === undefined) throw new Error(`No remote named ${remote} is configured`);
    return entry;
  }

  buildOf(remote: string): string | undefined {
    return this.current.get(remote)?.build;
  }

  registrations(): { name: string; entry: string }[] {
    return [...this.current].map(([name, { entry }]) => ({ name, entry }));
  }
}
