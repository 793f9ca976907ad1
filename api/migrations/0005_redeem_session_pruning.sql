-- Redeem sessions nobody can use any more are deleted by every API process now and then: open
-- ones past their expiry and superseded ones (completed ones are kept for good). This index
-- finds them oldest first without reading the completed ones.

CREATE INDEX redeem_sessions_prunable ON redeem_sessions (expires_at) WHERE status <> 'completed';
