/**
 * The API and the browser share one contract (shared/api/contract): every answer is exactly the
 * shape its schema describes, and a body its schema refuses is a 400 before any handler runs.
 */
import { type LightMyRequestResponse } from 'fastify';
import {
  apiErrorBodySchema,
  completeRedeemBodySchema,
  completeRedeemResultSchema,
  giftViewSchema,
  openRedeemResultSchema,
  playResultSchema,
  redeemViewSchema,
  visitorGiftsSchema,
} from 'shared/api/contract';
import { type ZodMiniType } from 'zod/mini';
import { harnessFor } from './support/harness';
import { complete, get, newVisitor, openRedeem, play, post, winGift } from './support/test-app';

const harness = harnessFor('postgres');

/** Parsing keeps only the properties the schema declares: an answer with more, or other, fails. */
function expectContract(schema: ZodMiniType, response: LightMyRequestResponse): void {
  const body: unknown = response.json();
  expect(schema.parse(body)).toStrictEqual(body);
}

describe('the shared contract', () => {
  it('describes every answer of a gift won, redeemed and shown again', async () => {
    const { app } = await harness.start({ gameWinRate: 1 });
    const cookie = newVisitor();
    const won = await play(app, { cookie });
    expectContract(playResultSchema, won);
    const giftId = await winGift(app, { cookie });
    expectContract(giftViewSchema, await get(app, `/api/gifts/${giftId}`));
    const opened = await post(app, `/api/gifts/${giftId}/redeems`, {}, { cookie });
    expect(opened.statusCode).toBe(201);
    expectContract(openRedeemResultSchema, opened);
    const redeemId = await openRedeem(app, giftId, { cookie });
    expectContract(redeemViewSchema, await get(app, `/api/redeems/${redeemId}`, { cookie }));
    expectContract(completeRedeemResultSchema, await complete(app, redeemId, 'jane@example.com', { cookie }));
    const shown = await get(app, `/api/redeems/${redeemId}`, { cookie });
    expect(shown.json()).toMatchObject({ status: 'completed', voucherCode: expect.any(String) });
    expectContract(redeemViewSchema, shown);
    const listed = await get(app, '/api/visitor/gifts', { cookie });
    expect(listed.json().gifts).toHaveLength(2);
    expectContract(visitorGiftsSchema, listed);
  });

  it('describes a lost play and every error', async () => {
    const { app } = await harness.start({ gameWinRate: 0, limits: { playsPerVisitorPerDay: 1 } });
    const cookie = newVisitor();
    const lost = await play(app, { cookie });
    expect(lost.json()).toMatchObject({ outcome: 'lose' });
    expectContract(playResultSchema, lost);
    const refused = await play(app, { cookie });
    expect(refused.statusCode).toBe(429);
    expectContract(apiErrorBodySchema, refused);
    expectContract(apiErrorBodySchema, await get(app, '/api/gifts/AAAAAAAAAAAAAAAAAAAAAAAA'));
    expectContract(apiErrorBodySchema, await get(app, '/api/nowhere'));
  });

  it.each([
    // The handler's email rule would say "at most 254 characters": the schema's limit comes first.
    [
      'an email over 1024 characters',
      { email: `${'a'.repeat(1020)}@example.com`, acceptTerms: true },
      'Invalid request body: email: Too big: expected string to have <=1024 characters',
    ],
    [
      'an unknown field',
      { email: 'jane@example.com', acceptTerms: true, giftId: 'x' },
      'Invalid request body: Unrecognized key: "giftId"',
    ],
  ])('refuses a completion with %s, as the schema does, with 400', async (_label, body, message) => {
    expect(completeRedeemBodySchema.safeParse(body).success).toBe(false);
    const { app } = await harness.start({ gameWinRate: 1 });
    const cookie = newVisitor();
    const redeemId = await openRedeem(app, await winGift(app, { cookie }), { cookie });
    const response = await post(app, `/api/redeems/${redeemId}/complete`, body, { cookie });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toStrictEqual({ statusCode: 400, statusMessage: 'Bad Request', message });
    expect((await get(app, `/api/redeems/${redeemId}`)).json().status).toBe('open');
  });
});
