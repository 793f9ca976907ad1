/** @jest-environment node */
import { EventEmitter } from 'node:events';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { reloadWhenOvertaken } = require('./hot-update-overtaken.cjs') as {
  reloadWhenOvertaken: (hot: { status: () => string }, emitter: EventEmitter, reload: () => void) => void;
};

/** webpack's own client: it starts a check for a newer build only from "idle". */
function webpackClient(emitter: EventEmitter, hot: { set: (status: string) => void; status: () => string }) {
  emitter.on('webpackHotUpdate', () => {
    if (hot.status() === 'idle') hot.set('check');
  });
}

function shell(status: string) {
  let current = status;
  const hot = { status: () => current, set: (next: string) => void (current = next) };
  const emitter = new EventEmitter();
  const reload = jest.fn();
  // As in the bundle: webpack's client first, this module after it.
  webpackClient(emitter, hot);
  jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  reloadWhenOvertaken(hot, emitter, reload);
  return { emitter, reload, hot };
}

it.each(['check', 'prepare'])(
  'reloads the shell when a newer build is announced while an update is in "%s"',
  (status) => {
    const { emitter, reload } = shell(status);
    emitter.emit('webpackHotUpdate', 'newer');
    expect(reload).toHaveBeenCalledTimes(1);
  },
);

it('leaves an idle shell to webpack, which checks for the update itself', () => {
  const { emitter, reload, hot } = shell('idle');
  emitter.emit('webpackHotUpdate', 'newer');
  expect(reload).not.toHaveBeenCalled();
  expect(hot.status()).toBe('check');
});
