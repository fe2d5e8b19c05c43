-- Likes (点赞): one per user per review, counted on the review by a trigger in the same transaction, so the
-- count is exact however many like and unlike at once (each change locks the review's row for its increment).
ALTER TABLE comments ADD COLUMN like_count integer NOT NULL DEFAULT 0 CHECK (like_count >= 0);

CREATE TABLE comment_likes (
    comment_id  text NOT NULL REFERENCES comments (id) ON DELETE CASCADE,
    user_id     text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (comment_id, user_id)
);
-- `liked` for a viewer: their likes among a page's reviews.
CREATE INDEX comment_likes_user ON comment_likes (user_id, comment_id);

CREATE FUNCTION comment_likes_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        UPDATE comments SET like_count = like_count + 1 WHERE id = NEW.comment_id;
    ELSE
        UPDATE comments SET like_count = like_count - 1 WHERE id = OLD.comment_id;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER comment_likes_count AFTER INSERT OR DELETE ON comment_likes
    FOR EACH ROW EXECUTE FUNCTION comment_likes_count();

-- `sort=helpful`: most liked first, then newest.
CREATE INDEX comments_store_helpful ON comments (store_id, like_count DESC, created_at DESC, id DESC)
    WHERE hidden_at IS NULL;
