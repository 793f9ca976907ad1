import { CrispClass } from 'crisp-sdk-web';
import { createChat, type Chat } from 'shared/browser/chat';
import type { CrispSdk } from './crisp-widget';
import { CRISP_SCRIPT_URL, loadCrisp } from './load-crisp';

const WEBSITE_ID = 'test-website-id';
const SCRIPT_URL = 'http://localhost:4510/l.js';

function fakeSdk(): CrispSdk & { configure: jest.Mock; load: jest.Mock } {
  return {
    configure: jest.fn(),
    load: jest.fn(),
    createSingletonIfNecessary: jest.fn(() => {
      window.$crisp ??= [];
    }),
    chat: {
      show: jest.fn(),
      hide: jest.fn(),
      open: jest.fn(),
      close: jest.fn(),
      onChatOpened: jest.fn(),
      onChatClosed: jest.fn(),
    },
  };
}

function crispScripts(): HTMLScriptElement[] {
  return Array.from(document.head.getElementsByTagName('script'));
}

let chat: Chat;
let warn: jest.SpyInstance;

beforeEach(() => {
  chat = createChat();
  warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  for (const script of crispScripts()) script.remove();
  delete (window as { $crisp?: unknown }).$crisp;
});

afterEach(() => warn.mockRestore());

describe('configured', () => {
  it('configures Crisp without autoload, with the configured script URL, then loads it and connects the facade', async () => {
    const Crisp = fakeSdk();
    await loadCrisp(
      { crispWebsiteId: WEBSITE_ID, scriptUrl: SCRIPT_URL },
      { chat, importSdk: async () => ({ Crisp }) },
    );
    expect(Crisp.configure).toHaveBeenCalledWith(WEBSITE_ID, { autoload: false, clientUrl: SCRIPT_URL });
    expect(Crisp.load).toHaveBeenCalledTimes(1);
    expect(Crisp.configure.mock.invocationCallOrder[0]).toBeLessThan(Crisp.load.mock.invocationCallOrder[0] ?? 0);
    expect(chat.availability()).toBe('on');

    chat.open();
    chat.close();
    chat.show();
    expect(Crisp.chat.open).toHaveBeenCalledTimes(1);
    expect(Crisp.chat.close).toHaveBeenCalledTimes(1);
    expect(Crisp.chat.show).toHaveBeenCalledTimes(1);
    expect(warn).not.toHaveBeenCalled();
  });

  it("uses Crisp's own script when no URL is configured", async () => {
    const Crisp = fakeSdk();
    await loadCrisp({ crispWebsiteId: WEBSITE_ID }, { chat, importSdk: async () => ({ Crisp }) });
    expect(Crisp.configure).toHaveBeenCalledWith(WEBSITE_ID, { autoload: false, clientUrl: CRISP_SCRIPT_URL });
  });

  it("with the real SDK: injects Crisp's script and queues the commands for it, hidden first, then what the page asked for", async () => {
    // A layout asked for the bubble and a visitor for the chat before the SDK arrived.
    chat.show();
    chat.toggle();
    await loadCrisp(
      { crispWebsiteId: WEBSITE_ID, scriptUrl: SCRIPT_URL },
      { chat, importSdk: async () => ({ Crisp: new CrispClass() }) },
    );
    expect(crispScripts().map((script) => script.getAttribute('src'))).toEqual([SCRIPT_URL]);
    expect(window.CRISP_WEBSITE_ID).toBe(WEBSITE_ID);
    // The redeem layout, client-side, after connecting.
    chat.hide();
    // Crisp's script, once it runs, takes these over from its queue array.
    const queued = window.$crisp as unknown[][];
    expect(queued.filter(([verb]) => verb === 'do')).toEqual([
      ['do', 'chat:hide'],
      ['do', 'chat:show'],
      ['do', 'chat:toggle'],
      ['do', 'chat:hide'],
    ]);
    expect(queued.filter(([verb]) => verb === 'on').map(([, name]) => name)).toEqual(['chat:opened', 'chat:closed']);
  });

  it("follows Crisp's own word on whether its window is open, for the chat button", async () => {
    const Crisp = fakeSdk();
    await loadCrisp({ crispWebsiteId: WEBSITE_ID }, { chat, importSdk: async () => ({ Crisp }) });
    const opened = Crisp.chat.onChatOpened as jest.Mock<void, [() => void]>;
    const closed = Crisp.chat.onChatClosed as jest.Mock<void, [() => void]>;
    expect(chat.isOpen()).toBe(false);
    opened.mock.calls[0]?.[0]();
    expect(chat.isOpen()).toBe(true);
    closed.mock.calls[0]?.[0]();
    expect(chat.isOpen()).toBe(false);
  });
});

describe('unconfigured or failing', () => {
  it('an SDK that does not load switches chat off with a warning; calls stay harmless', async () => {
    const failure = new Error('Loading chunk crisp failed');
    chat.hide();
    await loadCrisp({ crispWebsiteId: WEBSITE_ID }, { chat, importSdk: () => Promise.reject(failure) });
    expect(chat.availability()).toBe('off');
    expect(warn).toHaveBeenCalledWith('Live chat is off:', 'the Crisp SDK did not load', failure);
    expect(() => chat.toggle()).not.toThrow();
    expect(crispScripts()).toEqual([]);
  });

  it("Crisp's script failing to load switches chat off with a warning; the facade stops driving Crisp", async () => {
    const Crisp = new CrispClass();
    await loadCrisp(
      { crispWebsiteId: WEBSITE_ID, scriptUrl: SCRIPT_URL },
      { chat, importSdk: async () => ({ Crisp }) },
    );
    expect(chat.availability()).toBe('on');
    const queued = [...(window.$crisp as unknown[])];

    crispScripts()[0]?.dispatchEvent(new Event('error'));
    expect(chat.availability()).toBe('off');
    expect(warn).toHaveBeenCalledWith('Live chat is off:', `Crisp's script did not load from ${SCRIPT_URL}`);
    chat.toggle();
    expect(window.$crisp).toEqual(queued);
  });

  it('an SDK that throws while starting switches chat off with a warning', async () => {
    const Crisp = fakeSdk();
    const failure = new Error('websiteId must be set before loading Crisp');
    Crisp.load.mockImplementation(() => {
      throw failure;
    });
    await loadCrisp({ crispWebsiteId: WEBSITE_ID }, { chat, importSdk: async () => ({ Crisp }) });
    expect(chat.availability()).toBe('off');
    expect(warn).toHaveBeenCalledWith('Live chat is off:', 'Crisp could not start', failure);
  });
});
