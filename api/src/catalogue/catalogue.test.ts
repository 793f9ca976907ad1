import { join } from 'node:path';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { API_ROOT } from '../config';
import { loadCatalogue, parseCatalogue } from './catalogue';

const prize = {
  id: 'coffee',
  name: 'Coffee',
  description: 'A coffee.',
  value: { label: 'One coffee' },
  howToUse: 'Show the code at the counter.',
  conditions: 'One drink.',
  voucherValidDays: 30,
  icon: 'mdi:coffee',
  stock: 1,
  weight: 1,
};

describe('the prize catalogue', () => {
  it('ships a valid api/catalogue.json', async () => {
    const catalogue = await loadCatalogue(join(API_ROOT, 'catalogue.json'));
    expect(catalogue.prizes.length).toBeGreaterThanOrEqual(5);
    // Every prize of the shipped catalogue can tell a visitor how to use its voucher.
    for (const prize of catalogue.prizes) {
      expect(prize.howToUse.length).toBeGreaterThan(10);
      expect(prize.conditions.length).toBeGreaterThan(10);
    }
  });

  it.each([
    [{ prizes: [] }, 'prizes: Too small'],
    [{ prizes: [prize, prize] }, 'prizes: prize ids must be unique'],
    [{ prizes: [{ ...prize, stock: -1 }] }, 'prizes.0.stock: Too small'],
    [{ prizes: [{ ...prize, weight: 0 }] }, 'prizes.0.weight: Too small'],
    [{ prizes: [{ ...prize, icon: 'coffee' }] }, 'prizes.0.icon: use an Iconify name such as mdi:coffee'],
    [{ prizes: [{ ...prize, value: { amount: 10, currency: 'euro' } }] }, 'prizes.0.value'],
    [{ prizes: [{ ...prize, colour: 'red' }] }, 'Unrecognized key: "colour"'],
    [
      { prizes: [{ ...prize, value: { label: ' coffee ' } }] },
      'prizes.0.value.label: the value label repeats the name',
    ],
    [{ prizes: [{ ...prize, conditions: ' ' }] }, 'prizes.0.conditions: Too small'],
    [{ prizes: [{ ...prize, howToUse: undefined }] }, 'prizes.0.howToUse'],
    [{ prizes: [{ ...prize, voucherValidDays: 0 }] }, 'prizes.0.voucherValidDays: Too small'],
  ])('refuses %j', (value, problem) => {
    expect(() => parseCatalogue(value, 'test.json')).toThrow(problem);
  });

  it('names the file when it cannot be read or parsed', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'catalogue-'));
    try {
      await expect(loadCatalogue(join(folder, 'missing.json'))).rejects.toThrow(
        /missing\.json \(PRIZE_CATALOGUE_FILE\) cannot be read/,
      );
      writeFileSync(join(folder, 'broken.json'), '{ "prizes": [');
      await expect(loadCatalogue(join(folder, 'broken.json'))).rejects.toThrow(
        /broken\.json \(PRIZE_CATALOGUE_FILE\) is not valid JSON/,
      );
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
