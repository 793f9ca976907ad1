import { keepEarlyClicks } from './early-clicks';

const BOXES =
  '<main><ul><li><button>Box 1</button></li><li><button>Box 2</button></li><li><button>Box 3</button></li></ul></main>';

let container: HTMLElement;

beforeEach(() => {
  container = document.createElement('div');
  container.innerHTML = `<header><button>Menu</button></header>${BOXES}`;
  document.body.append(container);
});

afterEach(() => container.remove());

const button = (name: string) =>
  [...container.querySelectorAll('button')].find((candidate) => candidate.textContent === name) as HTMLButtonElement;

/** The app's own markup in place of the server's: the same buttons, each recording its clicks. */
function takeOver(markup = BOXES): string[] {
  const clicked: string[] = [];
  container.innerHTML = `<header><button>Menu</button></header>${markup}`;
  for (const element of container.querySelectorAll('button')) {
    element.addEventListener('click', () => clicked.push(element.textContent ?? ''));
  }
  return clicked;
}

describe('a click on a prerendered button before the app takes over', () => {
  it("is made again on the app's button, once", () => {
    const early = keepEarlyClicks(container);
    button('Box 2').click();
    button('Box 3').click();
    const clicked = takeOver();
    early.replay();
    early.replay();
    expect(clicked).toEqual(['Box 2']);
    // Listening stopped with the replay.
    button('Box 1').click();
    expect(clicked).toEqual(['Box 2', 'Box 1']);
  });

  it("is made on the app's button when the press began on the server's and ends after the takeover", () => {
    const early = keepEarlyClicks(container);
    button('Box 2').dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
    const clicked = takeOver();
    early.replay();
    expect(clicked).toEqual([]);
    // The release lands on the app's button: the browser makes no click of a press on a removed one.
    button('Box 2').dispatchEvent(new MouseEvent('mouseup', { bubbles: true }));
    expect(clicked).toEqual(['Box 2']);
    button('Box 2').dispatchEvent(new MouseEvent('mouseup', { bubbles: true }));
    expect(clicked).toEqual(['Box 2']);
  });

  it('makes a press that ended in a click before the takeover once only', () => {
    const early = keepEarlyClicks(container);
    button('Box 1').dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
    button('Box 1').click();
    const clicked = takeOver();
    early.replay();
    button('Box 1').dispatchEvent(new MouseEvent('mouseup', { bubbles: true }));
    expect(clicked).toEqual(['Box 1']);
  });

  it('is not made on a different page, on a disabled button, or when nothing was clicked', () => {
    let early = keepEarlyClicks(container);
    button('Box 2').click();
    let clicked = takeOver(BOXES.replace('Box 2', 'Try again'));
    early.replay();
    expect(clicked).toEqual([]);

    early = keepEarlyClicks(container);
    button('Box 1').click();
    clicked = takeOver(BOXES.replace('<button>Box 1', '<button disabled>Box 1'));
    early.replay();
    expect(clicked).toEqual([]);

    early = keepEarlyClicks(container);
    clicked = takeOver();
    early.replay();
    expect(clicked).toEqual([]);
  });

  it("keeps only the page's own buttons, not the frame's", () => {
    const early = keepEarlyClicks(container);
    button('Menu').click();
    const clicked = takeOver();
    early.replay();
    expect(clicked).toEqual([]);
  });
});
