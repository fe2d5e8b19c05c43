-- Reports and moderation: users report a comment with a reason; admins work a queue of reported comments (most
-- reported first) and hide, restore or dismiss; every action is logged with its admin.
CREATE TABLE reports (
    id           text PRIMARY KEY DEFAULT new_id('r_'),
    comment_id   text NOT NULL REFERENCES comments (id) ON DELETE CASCADE,
    reporter_id  text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    reason       text NOT NULL CHECK (reason IN ('spam', 'offensive', 'off_topic', 'fake', 'other')),
    note         text CHECK (char_length(note) <= 500 * 8),
    created_at   timestamptz NOT NULL DEFAULT now(),
    closed_at    timestamptz
);
-- One open report per user and comment.
CREATE UNIQUE INDEX reports_open_once ON reports (comment_id, reporter_id) WHERE closed_at IS NULL;
CREATE INDEX reports_comment ON reports (comment_id, created_at DESC);

CREATE TABLE moderation_log (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    -- No foreign keys: the log outlives deleted comments and accounts.
    comment_id  text NOT NULL,
    action      text NOT NULL CHECK (action IN ('hide', 'restore', 'dismiss')),
    admin_id    text,
    note        text CHECK (char_length(note) <= 500 * 8),
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX moderation_log_newest ON moderation_log (created_at DESC, id DESC);
