/**
 * Development only: reloads the host's page once a remote's development server has a good new
 * build, or a `static-changed` input. A remote's hot update cannot reach the host's React.
 */

export const DEV_SERVER_SOCKET_PATH = '/ws';
export const RECONNECT_DELAY_MS = 1000;
export const RECONNECT_ATTEMPTS = 10;

export type SocketLike = Pick<WebSocket, 'onopen' | 'onmessage' | 'onclose' | 'close'>;

export interface RemoteBuildsDeps {
  openSocket: (url: string) => SocketLike;
  reload: () => void;
  setTimeout: (callback: () => void, ms: number) => unknown;
  log: Pick<Console, 'info' | 'warn'>;
}

/** Undefined for a URL that is not http(s). */
export function devServerSocketUrl(manifestUrl: string, base: string): string | undefined {
  let url: URL;
  try {
    url = new URL(manifestUrl, base);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  return `${url.protocol === 'https:' ? 'wss:' : 'ws:'}//${url.host}${DEV_SERVER_SOCKET_PATH}`;
}

interface DevServerMessage {
  type: string;
  data?: unknown;
}

function parseMessage(data: unknown): DevServerMessage | undefined {
  if (typeof data !== 'string') return undefined;
  try {
    const message = JSON.parse(data) as Partial<DevServerMessage> | null;
    return typeof message?.type === 'string' ? (message as DevServerMessage) : undefined;
  } catch {
    return undefined;
  }
}

/** Returns a function that stops watching. */
export function watchRemoteBuilds(
  remotes: Readonly<Record<string, string>>,
  base: string,
  deps: RemoteBuildsDeps,
): () => void {
  let done = false;
  const sockets = new Set<SocketLike>();

  const reload = (reason: string) => {
    if (done) return;
    done = true;
    deps.log.info(`[dev] ${reason}: reloading the page`);
    for (const socket of sockets) socket.close();
    deps.reload();
  };

  const watch = (name: string, url: string) => {
    /** The build this page runs, as its server first named it. */
    let pageBuild: string | undefined;
    let latest: string | undefined;
    let everOpen = false;
    let attempts = 0;

    const onMessage = ({ type, data }: DevServerMessage) => {
      if (type === 'hash' && typeof data === 'string') {
        if (pageBuild === undefined) {
          pageBuild = data;
          deps.log.info(`[dev] ${name}: watching its development server, a new build of it reloads this page`);
        }
        latest = data;
      } else if ((type === 'ok' || type === 'warnings') && latest !== pageBuild) {
        reload(`${name} has a new build`);
      } else if (type === 'errors') {
        deps.log.warn(`[dev] ${name} failed to build (its terminal says why); this page reloads once it builds again`);
      } else if (type === 'static-changed') {
        reload(`${name}'s ${typeof data === 'string' ? data : 'files'} changed`);
      }
    };

    const connect = () => {
      if (done) return;
      const socket = deps.openSocket(url);
      sockets.add(socket);
      socket.onopen = () => {
        everOpen = true;
        attempts = 0;
      };
      socket.onmessage = (event) => {
        const message = parseMessage(event.data);
        if (message) onMessage(message);
      };
      socket.onclose = () => {
        sockets.delete(socket);
        if (done) return;
        if (!everOpen) {
          deps.log.info(`[dev] ${name}: no development server answers at ${url}; its changes do not reload this page`);
          return;
        }
        // The remote's server restarted, or is restarting: its next first `hash` tells whether
        // the build changed meanwhile.
        if (attempts >= RECONNECT_ATTEMPTS) return;
        attempts += 1;
        deps.setTimeout(connect, RECONNECT_DELAY_MS);
      };
    };
    connect();
  };

  for (const [name, manifestUrl] of Object.entries(remotes)) {
    const url = devServerSocketUrl(manifestUrl, base);
    if (url) watch(name, url);
  }
  return () => {
    done = true;
    for (const socket of sockets) socket.close();
  };
}
