import jsQR from 'jsqr';
import { VOUCHER_CODE } from '../../test-fixtures';
import { qrModules, qrPath } from './qr-modules';

/** Draws the modules as a scanner's camera would see them: 4 px each, a quiet zone, black on white. */
function scan(modules: boolean[][]): string | undefined {
  const scale = 4;
  const margin = 4;
  const size = (modules.length + 2 * margin) * scale;
  const pixels = new Uint8ClampedArray(size * size * 4).fill(255);
  modules.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (!dark) return;
      for (let dy = 0; dy < scale; dy += 1) {
        for (let dx = 0; dx < scale; dx += 1) {
          const offset = (((y + margin) * scale + dy) * size + (x + margin) * scale + dx) * 4;
          pixels.fill(0, offset, offset + 3);
        }
      }
    }),
  );
  return jsQR(pixels, size, size)?.data;
}

describe('the voucher QR code', () => {
  it('reads back as exactly the voucher code, dashes included', () => {
    const modules = qrModules(VOUCHER_CODE);
    expect(scan(modules)).toBe(VOUCHER_CODE);
  });

  it('stays coarse enough to scan easily: version 2 (25 modules) for a 34-character code', () => {
    // In alphanumeric mode; as bytes the code would need version 3 (29 modules).
    expect(qrModules(VOUCHER_CODE)).toHaveLength(25);
  });

  it('also encodes text outside the alphanumeric set, as bytes', () => {
    expect(scan(qrModules('https://example.com/v'))).toBe('https://example.com/v');
  });

  it('draws each run of dark modules in a row as one rectangle', () => {
    expect(
      qrPath([
        [true, true, false],
        [false, true, true],
      ]),
    ).toBe('M0 0h2v1h-2zM1 1h2v1h-2z');
  });
});
