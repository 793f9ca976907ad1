/**
 * One play of the game, in one transaction: count it against the visitor's and the address's
 * daily limits, decide the outcome on the server, and on a win take one unit of stock and
 * create the gift. Stock is decremented with a conditional UPDATE, so it never goes below zero
 * however many plays race; a prize that raced to zero is replaced by another one in stock.
 */
import { randomInt } from 'node:crypto';
import { type PlayResult, type PrizeValue } from 'shared/api/contract';
import { type AppConfig } from '../../config';
import { newId } from '../../codes';
import { type Database, type Queryable } from '../../db/database';
import { consume } from '../../limits/rate-limit';
import { addDays, dayWindow } from '../../time';
import { toGiftView } from '../gifts/gift-view';

const RANDOM_RANGE = 1_000_000;
// Each failed attempt means a prize reached zero stock; the catalogue is short.
const MAX_PRIZE_ATTEMPTS = 10;

interface PrizeRow {
  [column: string]: unknown;
  id: string;
  name: string;
  description: string;
  value: PrizeValue;
  icon: string;
}

export interface Player {
  visitorId: string;
  ip: string;
}

function decidesWin(winRate: number): boolean {
  return randomInt(RANDOM_RANGE) < Math.round(winRate * RANDOM_RANGE);
}

function pickWeighted<T extends { weight: number }>(candidates: T[]): T | undefined {
  const total = candidates.reduce((sum, candidate) => sum + candidate.weight, 0);
  if (total <= 0) return undefined;
  let ticket = randomInt(total);
  return candidates.find((candidate) => (ticket -= candidate.weight) < 0);
}

async function inStock(tx: Queryable): Promise<boolean> {
  const rows = await tx.query('SELECT 1 FROM prizes WHERE stock > 0 LIMIT 1');
  return rows.length > 0;
}

/** Takes one unit of a weighted-random prize that has stock; undefined when none is left. */
async function takePrize(tx: Queryable): Promise<PrizeRow | undefined> {
  for (let attempt = 0; attempt < MAX_PRIZE_ATTEMPTS; attempt += 1) {
    const candidates = await tx.query<{ id: string; weight: number }>(
      'SELECT id, weight FROM prizes WHERE stock > 0 ORDER BY id',
    );
    const chosen = pickWeighted(candidates);
    if (!chosen) return undefined;
    const [taken] = await tx.query<PrizeRow>(
      `UPDATE prizes SET stock = stock - 1 WHERE id = $1 AND stock > 0
       RETURNING id, name, description, value, icon`,
      [chosen.id],
    );
    if (taken) return taken;
  }
  return undefined;
}

export async function play(db: Database, config: AppConfig, player: Player, now: Date): Promise<PlayResult> {
  const day = dayWindow(now);
  const comeBack = 'Come back tomorrow for more plays.';
  return db.transaction(async (tx) => {
    const visitorLeft = await consume(
      tx,
      {
        scope: 'play:visitor',
        subject: player.visitorId,
        limit: config.limits.playsPerVisitorPerDay,
        window: day,
        message: `You have used all of today's plays. ${comeBack}`,
      },
      now,
    );
    const ipLeft = await consume(
      tx,
      {
        scope: 'play:ip',
        subject: player.ip,
        limit: config.limits.playsPerIpPerDay,
        window: day,
        message: `Too many plays from your network today. ${comeBack}`,
      },
      now,
    );
    const playsRemaining = Math.min(visitorLeft, ipLeft);

    if (!decidesWin(config.gameWinRate)) return { outcome: 'lose', playsRemaining, soldOut: !(await inStock(tx)) };
    const prize = await takePrize(tx);
    if (!prize) return { outcome: 'lose', playsRemaining, soldOut: !(await inStock(tx)) };

    const giftId = newId();
    const expiresAt = addDays(now, config.giftTtlDays);
    await tx.query(
      `INSERT INTO gifts (id, prize_id, status, created_at, expires_at)
       VALUES ($1, $2, 'available', $3::timestamptz, $4::timestamptz)`,
      [giftId, prize.id, now, expiresAt],
    );
    const gift = toGiftView(
      {
        gift_id: giftId,
        gift_status: 'available',
        gift_created_at: now,
        gift_expires_at: expiresAt,
        redeemed_at: null,
        prize_id: prize.id,
        prize_name: prize.name,
        prize_description: prize.description,
        prize_value: prize.value,
        prize_icon: prize.icon,
      },
      now,
    );
    return { outcome: 'win', gift, playsRemaining };
  });
}
