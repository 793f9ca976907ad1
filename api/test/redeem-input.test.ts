/**
 * An email the database could not store, or one made to look like another, is refused before
 * it gets there; and when a statement fails anyway, the log says what failed without the values
 * it was given (ids, the email, the voucher code, the visitor's hash).
 */
import { PassThrough } from 'node:stream';
import { VOUCHER_PATTERN } from '../src/codes';
import { REDACTED } from '../src/db/redact-error';
import { harnessFor } from './support/harness';
import { complete, get, newVisitor, openRedeem, winGift } from './support/test-app';
import { type Driver } from './support/test-db';

const drivers: Driver[] = ['pglite', 'postgres'];

const HIDDEN = [
  ['NUL', '\u0000'],
  ['a tab', '\t'],
  ['a line feed', '\n'],
  ['ESC', '\u001b'],
  ['DEL', '\u007f'],
  ['a C1 control', '\u0085'],
  ['a zero-width space', '\u200b'],
  ['a left-to-right mark', '\u200e'],
  ['a right-to-left mark', '\u200f'],
  ['a right-to-left override', '\u202e'],
  ['a left-to-right embedding', '\u202a'],
  ['a first strong isolate', '\u2068'],
  ['a pop directional isolate', '\u2069'],
  ['a byte order mark', '\ufeff'],
  ['half a character', '\ud800'],
];

describe.each(drivers)('redeem input and error logs on %s', (driver) => {
  const harness = harnessFor(driver);

  it('refuses an email with a control, invisible or bidirectional character inside with 400, and changes nothing', async () => {
    // Refused before the attempt is counted: fifteen of them stay within the address's limit.
    const { app, db } = await harness.start();
    const giftId = await winGift(app);
    const cookie = newVisitor();
    const redeemId = await openRedeem(app, giftId, { cookie });
    for (const [name, character] of HIDDEN) {
      const response = await complete(app, redeemId, `jane${character}doe@example.com`, { cookie });
      expect({ name, status: response.statusCode, body: response.json() }).toStrictEqual({
        name,
        status: 400,
        body: {
          statusCode: 400,
          statusMessage: 'Bad Request',
          message: 'Your email address contains invisible or control characters. Type it again.',
        },
      });
    }
    expect((await get(app, `/api/redeems/${redeemId}`, { cookie })).json()).toMatchObject({
      status: 'open',
      gift: { status: 'available' },
    });
    const [stored] = await db.query<{ email: string | null }>('SELECT email FROM redeem_sessions WHERE id = $1', [
      redeemId,
    ]);
    expect(stored).toEqual({ email: null });
  });

  it('still takes an address pasted with a line break or spaces around it', async () => {
    const { app } = await harness.start();
    const cookie = newVisitor();
    const redeemId = await openRedeem(app, await winGift(app), { cookie });
    expect((await complete(app, redeemId, '\tjane@example.com\r\n', { cookie })).statusCode).toBe(200);
  });

  it('logs a failed statement without the ids, email, voucher code or visitor hash it was given', async () => {
    const lines: string[] = [];
    const logStream = new PassThrough();
    logStream.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
    const { app, db } = await harness.start({ logLevel: 'info' }, { logStream });
    const giftId = await winGift(app);
    const cookie = newVisitor();
    const redeemId = await openRedeem(app, giftId, { cookie });
    const [session] = await db.query<{ visitor_hash: string }>(
      'SELECT visitor_hash FROM redeem_sessions WHERE id = $1',
      [redeemId],
    );
    // A rule the database enforces and the API does not know of: the completion's UPDATE fails
    // with the row it would have written in the error's detail.
    await db.exec(
      "ALTER TABLE redeem_sessions ADD CONSTRAINT test_refused_email CHECK (email NOT LIKE '%@refused.example')",
    );
    try {
      const email = 'secret.person@refused.example';
      const response = await complete(app, redeemId, email, { cookie });
      expect(response.statusCode).toBe(500);

      const failure = lines.map((line) => JSON.parse(line)).find((entry) => entry.msg === 'request failed');
      expect(failure?.err).toMatchObject({ code: '23514', constraint: 'test_refused_email', detail: REDACTED });
      expect(failure?.err.params).toBeUndefined();
      const log = lines.join('\n');
      for (const secret of [email, 'secret.person', redeemId, redeemId.slice(4), giftId, session!.visitor_hash])
        expect(log).not.toContain(secret);
      expect(log).not.toMatch(new RegExp(VOUCHER_PATTERN.source.replace(/^\^|\$$/g, '')));
    } finally {
      await db.exec('ALTER TABLE redeem_sessions DROP CONSTRAINT test_refused_email');
    }
    // Nothing was redeemed.
    expect((await get(app, `/api/gifts/${giftId}`)).json().status).toBe('available');
  });

  it('cuts the value a message quotes out of it', async () => {
    const { db } = await harness.start();
    const secret = 'jane.doe@example.com';
    const failure = await db.query('SELECT $1::int AS n', [secret]).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: '22P02', message: `invalid input syntax for type integer: "${REDACTED}"` });
    expect(JSON.stringify(failure)).not.toContain(secret);
    expect(String((failure as Error).stack)).not.toContain(secret);
  });
});
