-- The judge takes its queue in (due_at, comment_id) order, 500 at a time, but the index held due_at alone. Reviews an
-- import queues share one due_at (its transaction's now()), so every pass sorted the whole queue for its 500: on
-- 1M imported reviews the judge ran at 60-70 reviews a second and `chidian seed` would have taken four hours.
CREATE INDEX IF NOT EXISTS trust_queue_due_order ON trust_queue (due_at, comment_id);
DROP INDEX IF EXISTS trust_queue_due;
