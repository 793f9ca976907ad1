-- A redeem session belongs to the browser that opened it: the hash of its p_visitor cookie
-- (never the id itself). The browser that completed it is recorded too. Only these two are
-- shown the voucher code and the email hint; anyone else holding the session id sees the status.
-- Sessions from before this migration have no owner, so nobody is shown their voucher again.

ALTER TABLE redeem_sessions ADD COLUMN visitor_hash text;
ALTER TABLE redeem_sessions ADD COLUMN completed_visitor_hash text;

-- "Redeem" looks up the visitor's own open session of the gift.
CREATE INDEX redeem_sessions_gift_visitor ON redeem_sessions (gift_id, visitor_hash) WHERE status = 'open';
