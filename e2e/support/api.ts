/** Creates product data through the running API, as a visitor's browser would. */
import { originOf } from './test-env';

async function post<T>(path: string, expectedStatus: number[]): Promise<T> {
  const response = await fetch(`${originOf('api')}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: '{}',
    signal: AbortSignal.timeout(10_000),
  });
  const body = await response.text();
  if (!expectedStatus.includes(response.status))
    throw new Error(`POST ${path} answered HTTP ${response.status}: ${body}`);
  return JSON.parse(body) as T;
}

/** A fresh gift; the suite's API runs with GAME_WIN_RATE=1, so every play wins. */
export async function winGift(): Promise<string> {
  const result = await post<{ outcome: string; gift?: { giftId: string } }>('/api/game/plays', [200]);
  if (result.outcome !== 'win' || !result.gift) throw new Error(`expected a win, got ${JSON.stringify(result)}`);
  return result.gift.giftId;
}

export async function openRedeemSession(giftId: string): Promise<string> {
  return (await post<{ redeemId: string }>(`/api/gifts/${giftId}/redeems`, [200, 201])).redeemId;
}
