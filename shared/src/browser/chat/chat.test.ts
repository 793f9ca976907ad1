import { createChat, MAX_QUEUED_ACTIONS, type ChatCommand, type ChatWidget } from './chat';

function recordingWidget(): ChatWidget & { calls: ChatCommand[] } {
  const calls: ChatCommand[] = [];
  const record = (name: ChatCommand) => () => void calls.push(name);
  return {
    calls,
    show: record('show'),
    hide: record('hide'),
    open: record('open'),
    close: record('close'),
    toggle: record('toggle'),
  };
}

describe('before the widget is connected', () => {
  it('queues every command and replays them in order on connect', () => {
    const chat = createChat();
    chat.hide();
    chat.open();
    chat.toggle();
    chat.close();
    chat.show();
    const widget = recordingWidget();
    chat.connect(widget);
    expect(widget.calls).toEqual(['hide', 'open', 'toggle', 'close', 'show']);
    expect(chat.availability()).toBe('on');
  });

  it('keeps only the latest of consecutive show and hide', () => {
    const chat = createChat();
    chat.show();
    chat.hide();
    chat.show();
    chat.hide();
    chat.toggle();
    chat.hide();
    chat.show();
    const widget = recordingWidget();
    chat.connect(widget);
    expect(widget.calls).toEqual(['hide', 'toggle', 'show']);
  });

  it('is bounded: the oldest actions go, the latest visibility stays', () => {
    const chat = createChat();
    chat.hide();
    for (let i = 0; i < MAX_QUEUED_ACTIONS; i += 1) {
      chat.open();
      chat.show();
    }
    chat.toggle();
    chat.hide();
    const widget = recordingWidget();
    chat.connect(widget);
    const actions = widget.calls.filter((name) => name !== 'show' && name !== 'hide');
    expect(actions).toHaveLength(MAX_QUEUED_ACTIONS);
    expect(actions.at(-1)).toBe('toggle');
    expect(widget.calls.at(-1)).toBe('hide');
    // Never two visibility commands in a row: dropping an action collapsed its neighbours.
    widget.calls.forEach((name, i) => {
      const next = widget.calls[i + 1];
      if ((name === 'show' || name === 'hide') && next) expect(['show', 'hide']).not.toContain(next);
    });
  });

  it('reports "unknown" until the host decides', () => {
    expect(createChat().availability()).toBe('unknown');
  });
});

describe('once connected', () => {
  it('passes commands straight to the widget', () => {
    const chat = createChat();
    const widget = recordingWidget();
    chat.connect(widget);
    chat.toggle();
    chat.hide();
    chat.hide();
    expect(widget.calls).toEqual(['toggle', 'hide', 'hide']);
  });

  it('only logs a widget that throws, and keeps going', () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const chat = createChat();
    const widget = recordingWidget();
    const failure = new Error('widget broke');
    widget.open = () => {
      throw failure;
    };
    chat.open();
    chat.show();
    expect(() => chat.connect(widget)).not.toThrow();
    expect(widget.calls).toEqual(['show']);
    expect(() => chat.open()).not.toThrow();
    expect(warn).toHaveBeenCalledTimes(2);
    expect(warn).toHaveBeenCalledWith('Live chat: "open" failed', failure);
    warn.mockRestore();
  });
});

describe('when chat is off', () => {
  it('drops the queue and makes every call a no-op', () => {
    const chat = createChat();
    chat.open();
    chat.hide();
    chat.disable();
    for (const name of ['show', 'hide', 'open', 'close', 'toggle'] as const) expect(() => chat[name]()).not.toThrow();
    expect(chat.availability()).toBe('off');
    const late = recordingWidget();
    chat.connect(late);
    expect(late.calls).toEqual([]);
  });

  it('forgets a widget connected earlier (its script failed after connecting)', () => {
    const chat = createChat();
    const widget = recordingWidget();
    chat.connect(widget);
    chat.disable();
    chat.toggle();
    expect(widget.calls).toEqual([]);
  });
});

describe('availability', () => {
  it('tells subscribers when it changes, until they unsubscribe', () => {
    const chat = createChat();
    const listener = jest.fn();
    const unsubscribe = chat.subscribe(listener);
    chat.connect(recordingWidget());
    expect(listener).toHaveBeenCalledTimes(1);
    unsubscribe();
    chat.disable();
    expect(listener).toHaveBeenCalledTimes(1);
    expect(chat.availability()).toBe('off');
  });
});

describe('open state', () => {
  it('follows what the provider reports, tells subscribers, and resets when chat goes off', () => {
    const chat = createChat();
    const listener = jest.fn();
    chat.subscribe(listener);
    chat.connect({ show: jest.fn(), hide: jest.fn(), open: jest.fn(), close: jest.fn(), toggle: jest.fn() });
    listener.mockClear();

    chat.reportOpen(true);
    chat.reportOpen(true);
    expect(chat.isOpen()).toBe(true);
    expect(listener).toHaveBeenCalledTimes(1);

    chat.disable();
    expect(chat.isOpen()).toBe(false);
    chat.reportOpen(true);
    expect(chat.isOpen()).toBe(false);
  });
});
