import {
  devServerSocketUrl,
  RECONNECT_ATTEMPTS,
  RECONNECT_DELAY_MS,
  watchRemoteBuilds,
  type RemoteBuildsDeps,
  type SocketLike,
} from './dev-server-reload';

class FakeSocket {
  onopen: SocketLike['onopen'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onclose: SocketLike['onclose'] = null;
  closed = false;

  constructor(readonly url: string) {}

  open(): void {
    this.onopen?.call(this as unknown as WebSocket, new Event('open'));
  }

  send(type: string, data?: unknown): void {
    const event = new MessageEvent('message', { data: JSON.stringify({ type, data }) });
    this.onmessage?.call(this as unknown as WebSocket, event);
  }

  /** The server went away (or never answered). */
  drop(): void {
    this.onclose?.call(this as unknown as WebSocket, new CloseEvent('close'));
  }

  close(): void {
    this.closed = true;
  }
}

const REMOTES = {
  gifts: 'http://localhost:3001/mf-manifest.json',
  content: 'http://localhost:3003/mf-manifest.json',
};

function setUp(remotes: Record<string, string> = REMOTES) {
  const sockets: FakeSocket[] = [];
  const timers: Array<{ callback: () => void; ms: number }> = [];
  const deps = {
    openSocket: jest.fn((url: string) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket as unknown as SocketLike;
    }),
    reload: jest.fn(),
    setTimeout: jest.fn((callback: () => void, ms: number) => timers.push({ callback, ms })),
    log: { info: jest.fn(), warn: jest.fn() },
  } satisfies RemoteBuildsDeps;
  const stop = watchRemoteBuilds(remotes, 'http://localhost:3000/game', deps);
  const socketOf = (port: number) => sockets.filter((socket) => socket.url === `ws://localhost:${port}/ws`).at(-1)!;
  return { deps, sockets, timers, stop, socketOf };
}

describe("the host's development page and the remotes' development servers", () => {
  it("listens to each remote's development server on its web socket", () => {
    const { sockets } = setUp();
    expect(sockets.map((socket) => socket.url)).toEqual(['ws://localhost:3001/ws', 'ws://localhost:3003/ws']);
    expect(devServerSocketUrl('https://gifts.example.com/builds/1/mf-manifest.json', 'http://x')).toBe(
      'wss://gifts.example.com/ws',
    );
    expect(devServerSocketUrl('/gifts/mf-manifest.json', 'http://localhost:3000/')).toBe('ws://localhost:3000/ws');
    expect(devServerSocketUrl('data:text/plain,x', 'http://localhost:3000/')).toBeUndefined();
  });

  it('reloads the page once when a remote has compiled a new build, not for the build it runs', () => {
    const { deps, socketOf, sockets } = setUp();
    const gifts = socketOf(3001);
    gifts.open();
    gifts.send('hot');
    gifts.send('hash', 'aaa');
    gifts.send('ok');
    expect(deps.reload).not.toHaveBeenCalled();
    expect(deps.log.info).toHaveBeenCalledWith(expect.stringContaining('[dev] gifts: watching'));

    gifts.send('invalid');
    gifts.send('still-ok');
    expect(deps.reload).not.toHaveBeenCalled();

    gifts.send('invalid');
    gifts.send('hash', 'bbb');
    expect(deps.reload).not.toHaveBeenCalled();
    gifts.send('ok');
    expect(deps.reload).toHaveBeenCalledTimes(1);
    expect(sockets.every((socket) => socket.closed)).toBe(true);

    // Whatever else arrives before the page is gone reloads it no second time.
    socketOf(3003).send('static-changed', 'content/home.md');
    gifts.send('hash', 'ccc');
    gifts.send('ok');
    expect(deps.reload).toHaveBeenCalledTimes(1);
  });

  it('waits through a failed build for the next good one', () => {
    const { deps, socketOf } = setUp();
    const gifts = socketOf(3001);
    gifts.open();
    gifts.send('hash', 'aaa');
    gifts.send('ok');
    gifts.send('hash', 'bbb');
    gifts.send('errors', [{ message: 'Syntax error' }]);
    expect(deps.reload).not.toHaveBeenCalled();
    expect(deps.log.warn).toHaveBeenCalledWith(expect.stringContaining('gifts failed to build'));
    gifts.send('hash', 'ccc');
    gifts.send('warnings', [{ message: 'a warning' }]);
    expect(deps.reload).toHaveBeenCalledTimes(1);
  });

  it("reloads when a build's other inputs changed (the content's Markdown), which no hash names", () => {
    const { deps, socketOf } = setUp();
    const content = socketOf(3003);
    content.open();
    content.send('hash', 'aaa');
    content.send('ok');
    content.send('invalid');
    content.send('still-ok');
    content.send('static-changed', 'content/home.md');
    expect(deps.reload).toHaveBeenCalledTimes(1);
    expect(deps.log.info).toHaveBeenCalledWith("[dev] content's content/home.md changed: reloading the page");
  });

  it('reconnects to a restarted server and reloads if it builds something else meanwhile', () => {
    const { deps, socketOf, timers } = setUp();
    const gifts = socketOf(3001);
    gifts.open();
    gifts.send('hash', 'aaa');
    gifts.drop();
    expect(timers).toHaveLength(1);
    expect(timers[0]?.ms).toBe(RECONNECT_DELAY_MS);
    timers[0]?.callback();
    const again = socketOf(3001);
    expect(again).not.toBe(gifts);
    again.open();
    again.send('hash', 'aaa');
    again.send('ok');
    expect(deps.reload).not.toHaveBeenCalled();
    again.send('hash', 'bbb');
    again.send('ok');
    expect(deps.reload).toHaveBeenCalledTimes(1);
  });

  it('gives up on a server that stays away, and leaves alone a remote with no development server', () => {
    const { deps, socketOf, timers } = setUp();
    socketOf(3003).drop();
    expect(timers).toHaveLength(0);
    expect(deps.log.info).toHaveBeenCalledWith(expect.stringContaining('content: no development server answers'));

    socketOf(3001).open();
    for (let attempt = 0; attempt < RECONNECT_ATTEMPTS + 3; attempt += 1) {
      socketOf(3001).drop();
      timers.shift()?.callback();
    }
    expect(deps.openSocket.mock.calls.filter(([url]) => url === 'ws://localhost:3001/ws')).toHaveLength(
      RECONNECT_ATTEMPTS + 1,
    );
    expect(deps.reload).not.toHaveBeenCalled();
  });

  it('ignores what is not a development server message', () => {
    const { deps, socketOf } = setUp();
    const gifts = socketOf(3001);
    gifts.onmessage?.call(gifts as unknown as WebSocket, new MessageEvent('message', { data: 'not json' }));
    gifts.onmessage?.call(gifts as unknown as WebSocket, new MessageEvent('message', { data: '{"data":1}' }));
    expect(deps.reload).not.toHaveBeenCalled();
  });

  it('stops watching when asked', () => {
    const { deps, socketOf, sockets, stop } = setUp();
    stop();
    expect(sockets.every((socket) => socket.closed)).toBe(true);
    socketOf(3001).send('static-changed');
    expect(deps.reload).not.toHaveBeenCalled();
  });
});
