/**
 * The live-chat facade every part calls: `chat.toggle()`, `chat.show()`, `chat.hide()`,
 * `chat.open()`, `chat.close()`. It is a federation singleton, so the host and every remote
 * drive the one widget the host connects after first paint. Calls made before that are queued
 * and replayed in order; when chat is off, or in a remote's standalone shell, they do nothing
 * harmful. A widget that throws is only logged.
 */

import { createListeners } from '../listeners';

export type ChatCommand = 'show' | 'hide' | 'open' | 'close' | 'toggle';

/** What the host's adapter connects: the provider's widget, one function per command. */
export type ChatWidget = Record<ChatCommand, () => void>;

/** 'unknown' until the host says whether chat is configured (and for ever without a host). */
export type ChatAvailability = 'unknown' | 'on' | 'off';

export interface Chat extends ChatWidget {
  /** The host: the widget is ready for commands; the queue is replayed into it. */
  connect(widget: ChatWidget): void;
  /** The host: chat is not configured or could not load; calls are no-ops until a widget connects. */
  disable(): void;
  availability(): ChatAvailability;
  /** The host's adapter: the provider says its chat window opened or closed. */
  reportOpen(open: boolean): void;
  /** Whether the chat window is open, as the provider last said. */
  isOpen(): boolean;
  /** For `useSyncExternalStore`: called whenever the availability or the open state changes. */
  subscribe(listener: () => void): () => void;
}

/**
 * Open, close and toggle kept while the widget is not there. A visitor clicks a few times at
 * most; the bound only matters when no host ever connects one (a remote on its own).
 */
export const MAX_QUEUED_ACTIONS = 20;

const isVisibility = (command: ChatCommand | undefined): boolean => command === 'show' || command === 'hide';

/** Drops the oldest action; visibility commands that end up side by side collapse to the later one. */
function dropOldestAction(queue: ChatCommand[]): void {
  const index = queue.findIndex((command) => !isVisibility(command));
  if (index < 0) return;
  queue.splice(index, 1);
  if (index > 0 && isVisibility(queue[index - 1]) && isVisibility(queue[index])) queue.splice(index - 1, 1);
}

/**
 * Show and hide set a state, so of consecutive ones only the latest counts (a layout that
 * mounts and unmounts before the widget arrives queues one command, not a history). Open,
 * close and toggle are actions and keep their order relative to the visibility around them.
 */
function enqueue(queue: ChatCommand[], command: ChatCommand): void {
  if (isVisibility(command) && isVisibility(queue.at(-1))) queue[queue.length - 1] = command;
  else queue.push(command);
  if (queue.filter((queued) => !isVisibility(queued)).length > MAX_QUEUED_ACTIONS) dropOldestAction(queue);
}

function runLogged(widget: ChatWidget, command: ChatCommand): void {
  try {
    widget[command]();
  } catch (error) {
    console.warn(`Live chat: "${command}" failed`, error);
  }
}

/** A fresh facade; the app uses the one `chat` below, tests make their own. */
export function createChat(): Chat {
  let state: ChatAvailability = 'unknown';
  let opened = false;
  let widget: ChatWidget | undefined;
  let queue: ChatCommand[] = [];
  const { subscribe, notify } = createListeners();
  const setState = (next: ChatAvailability) => {
    if (next === state) return;
    state = next;
    notify();
  };

  const command = (name: ChatCommand) => () => {
    if (state === 'off') return;
    if (widget) runLogged(widget, name);
    else enqueue(queue, name);
  };

  return {
    show: command('show'),
    hide: command('hide'),
    open: command('open'),
    close: command('close'),
    toggle: command('toggle'),
    connect(next) {
      widget = next;
      const pending = queue;
      queue = [];
      for (const name of pending) runLogged(next, name);
      setState('on');
    },
    disable() {
      widget = undefined;
      queue = [];
      opened = false;
      setState('off');
    },
    availability: () => state,
    reportOpen(open) {
      if (open === opened || state === 'off') return;
      opened = open;
      notify();
    },
    isOpen: () => opened,
    subscribe,
  };
}

export const chat: Chat = createChat();
