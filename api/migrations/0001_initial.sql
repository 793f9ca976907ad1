-- Prizes, gifts, redeem sessions and abuse-limit counters. Timestamps come from the application
-- (never now() here), so every process and every test agrees on what "now" is.

CREATE TABLE prizes (
  id          text PRIMARY KEY,
  name        text NOT NULL,
  description text NOT NULL,
  value       jsonb NOT NULL,
  icon        text NOT NULL,
  stock       integer NOT NULL CHECK (stock >= 0),
  weight      integer NOT NULL CHECK (weight > 0),
  created_at  timestamptz NOT NULL
);

CREATE TABLE gifts (
  id          text PRIMARY KEY,
  prize_id    text NOT NULL REFERENCES prizes (id),
  status      text NOT NULL CHECK (status IN ('available', 'redeemed')),
  created_at  timestamptz NOT NULL,
  expires_at  timestamptz NOT NULL,
  redeemed_at timestamptz,
  CHECK ((status = 'redeemed') = (redeemed_at IS NOT NULL))
);

CREATE TABLE redeem_sessions (
  id           text PRIMARY KEY,
  gift_id      text NOT NULL REFERENCES gifts (id),
  status       text NOT NULL CHECK (status IN ('open', 'completed', 'superseded')),
  created_at   timestamptz NOT NULL,
  expires_at   timestamptz NOT NULL,
  completed_at timestamptz,
  email        text,
  voucher_code text UNIQUE,
  CHECK ((status = 'completed') = (completed_at IS NOT NULL AND email IS NOT NULL AND voucher_code IS NOT NULL))
);

CREATE INDEX redeem_sessions_gift ON redeem_sessions (gift_id, status);

-- The last line of defence against a double redemption: one completed session per gift.
CREATE UNIQUE INDEX redeem_sessions_one_completion_per_gift ON redeem_sessions (gift_id) WHERE status = 'completed';

-- Fixed-window counters for the abuse limits, shared by every API process.
CREATE TABLE rate_counters (
  bucket       text NOT NULL,
  window_start timestamptz NOT NULL,
  hits         integer NOT NULL CHECK (hits > 0),
  PRIMARY KEY (bucket, window_start)
);

CREATE INDEX rate_counters_window ON rate_counters (window_start);
