/**
 * A real gift and redeem session for the gate's routes with parameters, made through the site's
 * API as a visitor's page makes them (play, then open the gift's redeem), and the `--path` of
 * each such route filled in with them.
 */
import { randomBytes } from 'node:crypto';
import { REMOTES, type RemoteName, type RemoteSpec } from 'shared/remotes';

/** A route parameter's name (`giftId`, `redeemId`) and the real value a sample gives it. */
export type SampleIds = Readonly<Record<string, string>>;

async function post<T>(origin: string, path: string, headers: Record<string, string> = {}): Promise<T> {
  const response = await fetch(`${origin}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: '{}',
    signal: AbortSignal.timeout(15_000),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${path} answered HTTP ${response.status}: ${text.slice(0, 200)}`);
  return JSON.parse(text) as T;
}

/** Plays until a win (staging's API wins every play) and opens the gift's redeem session. */
export async function makeSample(origin: string): Promise<SampleIds> {
  const play = await post<{ outcome: string; gift?: { giftId: string } }>(origin, '/api/game/plays', {
    // The API's contract: a play is repeatable under its key.
    'idempotency-key': randomBytes(18).toString('base64url'),
  });
  if (play.outcome !== 'win' || !play.gift)
    throw new Error(`the play did not win (${play.outcome}): is the API's GAME_WIN_RATE 1, and a prize in stock?`);
  const { giftId } = play.gift;
  const { redeemId } = await post<{ redeemId: string }>(origin, `/api/gifts/${giftId}/redeems`);
  return { giftId, redeemId };
}

/** Each route of the remote with parameters at the sample's ids: `/gifts/<giftId>`; none for a remote without. */
export function samplePaths(spec: RemoteSpec, ids: SampleIds): string[] {
  return Object.values(spec.exposes).flatMap((module) =>
    module.routes
      .filter((route) => route.path.includes(':'))
      .map((route) =>
        route.path.replace(/:([A-Za-z]+)/g, (_match, name: string) => {
          const value = ids[name];
          if (value === undefined) throw new Error(`the sample has no ${name} for ${route.path}`);
          return value;
        }),
      ),
  );
}

/** `--path …` for each of the remote's routes with parameters, as the gate and the release take them. */
export function pathArgs(remote: RemoteName, ids: SampleIds): string {
  return samplePaths(REMOTES[remote], ids)
    .map((path) => ` --path ${path}`)
    .join('');
}
