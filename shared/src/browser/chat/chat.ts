/**
 * The live-chat facade, a federation singleton: every part drives the one widget the host
 * connects after first paint. Earlier calls are queued and replayed; without chat they do nothing.
 */

import { createListeners } from '../listeners';

export type ChatCommand = 'show' | 'hide' | 'open' | 'close' | 'toggle';

export type ChatWidget = Record<ChatCommand, () => void>;

export type ChatAvailability = 'unknown' | 'on' | 'off';

export interface Chat extends ChatWidget {
  connect(widget: ChatWidget): void;
  disable(): void;
  availability(): ChatAvailability;
  reportOpen(open: boolean): void;
  isOpen(): boolean;
  subscribe(listener: () => void): () => void;
}

/** The bound matters only when no host ever connects a widget (a remote on its own). */
export const MAX_QUEUED_ACTIONS = 20;

const isVisibility = (command: ChatCommand | undefined): boolean => command === 'show' || command === 'hide';

function dropOldestAction(queue: ChatCommand[]): void {
  const index = queue.findIndex((command) => !isVisibility(command));
  if (index < 0) return;
  queue.splice(index, 1);
  if (index > 0 && isVisibility(queue[index - 1]) && isVisibility(queue[index])) queue.splice(index - 1, 1);
}

/** Show and hide set a state, so only the latest of consecutive ones counts; actions keep their order. */
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
