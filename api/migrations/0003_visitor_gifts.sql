-- A visitor's gifts and repeatable plays.
-- A gift records the hash of the p_visitor cookie of the browser that won it, so that browser can
-- list its gifts (GET /api/visitor/gifts). Gifts won before this migration have no owner.

ALTER TABLE gifts ADD COLUMN visitor_hash text;

CREATE INDEX gifts_visitor ON gifts (visitor_hash, created_at DESC) WHERE visitor_hash IS NOT NULL;

-- The gifts a browser redeemed (it may not have won them: a link can be passed on).
CREATE INDEX redeem_sessions_completed_visitor ON redeem_sessions (completed_visitor_hash) WHERE status = 'completed';

-- A play's answer under the idempotency key the client sent with it: the same key from the same
-- visitor gets the first answer again and spends nothing more. The row is claimed first, so a
-- concurrent play with the same key waits for the first one's answer; `result` is NULL only inside
-- that transaction. Kept for two days.
CREATE TABLE plays (
  visitor_hash    text NOT NULL,
  idempotency_key text NOT NULL,
  result          jsonb,
  created_at      timestamptz NOT NULL,
  PRIMARY KEY (visitor_hash, idempotency_key)
);

CREATE INDEX plays_created ON plays (created_at);
