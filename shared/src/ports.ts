/** Where each part runs by default; each can be moved with the environment variable named here. */
import { REMOTE_NAMES, REMOTES, type RemoteName } from './remotes';

type RemotePorts = {
  readonly [R in RemoteName]: {
    readonly env: (typeof REMOTES)[R]['portEnv'];
    readonly port: (typeof REMOTES)[R]['port'];
  };
};

/** The remotes' ports come from the registry (`./remotes`). */
const REMOTE_PORTS = Object.fromEntries(
  REMOTE_NAMES.map((name) => [name, { env: REMOTES[name].portEnv, port: REMOTES[name].port }]),
) as RemotePorts;

export const DEFAULT_PORTS = {
  host: { env: 'HOST_PORT', port: 3000 },
  ...REMOTE_PORTS,
  api: { env: 'API_PORT', port: 3004 },
} as const;

export type PartName = keyof typeof DEFAULT_PORTS;
