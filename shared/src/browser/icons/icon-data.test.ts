import { iconFromSet } from './icon-data';

const body = '<path fill="currentColor" d="M0 0h24v24z"/>';

describe('iconFromSet', () => {
  it('takes an icon with the set-wide size, as the icon service answers', () => {
    const set = { prefix: 'mdi', icons: { rocket: { body } }, width: 24, height: 24 };
    expect(iconFromSet(set, 'mdi:rocket')).toEqual({
      body,
      width: 24,
      height: 24,
      rotate: 0,
      hFlip: false,
      vFlip: false,
    });
  });

  it('lets the icon’s own size win over the set’s', () => {
    const set = { prefix: 'mdi', icons: { wide: { body, width: 32 } }, width: 24, height: 24 };
    expect(iconFromSet(set, 'mdi:wide')).toMatchObject({ width: 32, height: 24 });
  });

  it('resolves an alias through its parents, adding up flips and rotations', () => {
    const set = {
      prefix: 'mdi',
      icons: { arrow: { body, rotate: 1 } },
      aliases: {
        'arrow-flipped': { parent: 'arrow', hFlip: true, rotate: 1 },
        'arrow-back': { parent: 'arrow-flipped', hFlip: true, height: 20 },
      },
      height: 24,
    };
    expect(iconFromSet(set, 'mdi:arrow-back')).toEqual({ body, height: 20, rotate: 2, hFlip: false, vFlip: false });
  });

  it.each([
    ['the service does not have the icon', { prefix: 'mdi', icons: {}, not_found: ['rocket'] }],
    ['the set is of another prefix', { prefix: 'fa', icons: { rocket: { body } } }],
    ['the icon has no body', { prefix: 'mdi', icons: { rocket: { width: 24 } } }],
    ['an alias loops', { prefix: 'mdi', icons: {}, aliases: { rocket: { parent: 'rocket' } } }],
    ['the answer is not an icon set', ['mdi', 'rocket']],
    ['the answer is null', null],
  ])('is undefined when %s', (_what, set) => {
    expect(iconFromSet(set, 'mdi:rocket')).toBeUndefined();
  });

  it('is undefined for a name that is not an Iconify name', () => {
    expect(iconFromSet({ prefix: 'mdi', icons: { rocket: { body } } }, 'rocket')).toBeUndefined();
  });
});
