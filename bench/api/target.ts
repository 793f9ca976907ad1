/** What the measured sections share: the servers under test, the settings and the targets. */
import { jsonObject, objectField, send, stringField } from './http';
import { type Server } from './servers';

export interface Target {
  label: string;
  server: Server;
  /** GET path of the gift this server answers. */
  giftPath: string;
  /** The PostgreSQL database it uses, whose backends' CPU counts too. */
  database?: string;
}

export interface Settings {
  rounds: number;
  connections: number;
  saturationSeconds: number;
  warmupSeconds: number;
  latencyRounds: number;
  fixedRate: number;
  fixedSeconds: number;
  writeRate: number;
}

/** The goals printed next to the figures. */
export const TARGETS = { pgliteRatio: 0.25, postgresRatio: 0.5, p99Ms: 50 } as const;

/** Plays until one wins (GAME_WIN_RATE 0.3: 100 plays all losing is practically impossible). */
export async function wonGift(api: Server): Promise<{ path: string; body: string }> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const play = jsonObject(
      await send(api.baseUrl, '/api/game/plays', { method: 'POST', body: {} }),
      'POST /api/game/plays',
    );
    if (play.outcome !== 'win') continue;
    const path = `/api/gifts/${stringField(objectField(play, 'gift', 'play'), 'giftId', 'play')}`;
    const reply = await send(api.baseUrl, path);
    if (reply.status !== 200) throw new Error(`GET ${path} on ${api.name} answered ${reply.status}`);
    return { path, body: reply.text };
  }
  throw new Error(`${api.name}: no play won in 100 attempts`);
}
