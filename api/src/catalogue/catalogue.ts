/** The operator's prize catalogue file: its schema, and reading it with errors that name the file. */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';

const prizeSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'use lowercase letters, digits and dashes (at most 64)'),
  name: z.string().trim().min(1).max(100),
  description: z.string().trim().max(500),
  value: z.union([
    z.strictObject({
      amount: z.number().positive().finite(),
      currency: z.string().regex(/^[A-Z]{3}$/, 'use an ISO 4217 code such as EUR'),
    }),
    z.strictObject({ label: z.string().trim().min(1).max(100) }),
  ]),
  /** Where and how the voucher is used, shown next to its code. */
  howToUse: z.string().trim().min(1).max(500),
  conditions: z.string().trim().min(1).max(1000),
  /** A voucher can be used for this many days after the gift is redeemed. */
  voucherValidDays: z.number().int().min(1).max(3650),
  icon: z.string().regex(/^[a-z0-9-]+:[a-z0-9-]+$/, 'use an Iconify name such as mdi:coffee'),
  stock: z.number().int().min(0),
  weight: z.number().int().min(1),
});

const sameText = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

// Pages show the value under the name: "Tote bag / Tote bag" tells a visitor nothing.
const prizeEntrySchema = prizeSchema.refine(
  (prize) => !('label' in prize.value && sameText(prize.value.label, prize.name)),
  {
    message: 'the value label repeats the name: say what the prize is worth ("One free coffee"), or give an amount',
    path: ['value', 'label'],
  },
);

export const catalogueSchema = z
  .strictObject({ prizes: z.array(prizeEntrySchema).min(1) })
  .refine((catalogue) => new Set(catalogue.prizes.map((prize) => prize.id)).size === catalogue.prizes.length, {
    message: 'prize ids must be unique',
    path: ['prizes'],
  });

export type Catalogue = z.infer<typeof catalogueSchema>;
export type CataloguePrize = Catalogue['prizes'][number];

export class CatalogueError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CatalogueError';
  }
}

export function parseCatalogue(value: unknown, source: string): Catalogue {
  const result = catalogueSchema.safeParse(value);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
  throw new CatalogueError(`The prize catalogue ${source} is invalid: ${problems.join('; ')}`);
}

export async function loadCatalogue(file: string): Promise<Catalogue> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new CatalogueError(
      `The prize catalogue ${file} (PRIZE_CATALOGUE_FILE) cannot be read: ${(error as Error).message}`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new CatalogueError(
      `The prize catalogue ${file} (PRIZE_CATALOGUE_FILE) is not valid JSON: ${(error as Error).message}`,
    );
  }
  return parseCatalogue(json, `${file} (PRIZE_CATALOGUE_FILE)`);
}
