-- A store's answer to a review (商家回复): at most one per review, written by that store's manager. The reply
-- goes with its review (cascade) and shows under it wherever the review appears.
CREATE TABLE comment_replies (
    comment_id  text PRIMARY KEY REFERENCES comments (id) ON DELETE CASCADE,
    author_id   text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    body        text NOT NULL CHECK (btrim(body) <> '' AND char_length(body) <= 2000 * 8),
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);
