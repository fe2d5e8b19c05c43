-- People (issue #33, part 1): follows, the following feed, and notifications with their live stream.
--
-- Follows: one row per (follower, followee); both sides cascade with their users, and the counts on users follow
-- every insert and delete by trigger (a cascade from a deleted account included), so they stay exact.
--
-- The following feed is fanned out on read: a page reads each followee's newest review on comments_author_reviews
-- (one index-only probe per followee), then a page of reviews from each of the page of authors whose newest is
-- newest, and merges them. A review then costs nothing per follower, whatever their number.
--
-- Notifications are written by triggers on their causes, so every path (API, web client, CLI, psql) makes them, in
-- the cause's own transaction: a rolled-back cause leaves none. Actors are rows (notification_actors) with a
-- foreign key to users, so deleting a user leaves no row naming them. A bulk import (cache_bulk()) makes none.
--
-- Every notification has a per-user sequence number `seq`, taken from notification_counters under the counter
-- row's lock, so one user's notifications commit in `seq` order. The live stream's event id is `seq`, and resuming
-- from `Last-Event-ID` reads `seq > last` without skipping a row that committed late. A grouped like that gains an
-- actor takes the next `seq`, so a stream sends it again with its new count. Each change NOTIFYs channel
-- chidian_notifications with '<user id> <seq>' only; a server reads the row itself.

CREATE TABLE follows (
    follower_id  text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    followee_id  text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (follower_id, followee_id),
    CHECK (follower_id <> followee_id)
);
-- A user's following list (newest first) is the primary key's prefix plus this; followers by this one.
CREATE INDEX follows_following_newest ON follows (follower_id, created_at DESC, followee_id DESC);
CREATE INDEX follows_followers_newest ON follows (followee_id, created_at DESC, follower_id DESC);

-- The following feed's reviews by author, newest first, index-only for its first step.
CREATE INDEX comments_author_reviews ON comments (author_id, created_at DESC, id DESC)
    WHERE hidden_at IS NULL AND kind = 'review' AND NOT store_archived;

ALTER TABLE users
    ADD COLUMN follower_count integer NOT NULL DEFAULT 0 CHECK (follower_count >= 0),
    ADD COLUMN following_count integer NOT NULL DEFAULT 0 CHECK (following_count >= 0);

CREATE FUNCTION follows_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- Lock order by id, so two users following each other at once do not deadlock.
    IF TG_OP = 'INSERT' THEN
        UPDATE users SET
            follower_count = follower_count + CASE WHEN id = NEW.followee_id THEN 1 ELSE 0 END,
            following_count = following_count + CASE WHEN id = NEW.follower_id THEN 1 ELSE 0 END
        WHERE id IN (NEW.follower_id, NEW.followee_id);
    ELSE
        -- A cascade from a deleted user finds that user's row gone already: only the other side changes.
        UPDATE users SET
            follower_count = follower_count - CASE WHEN id = OLD.followee_id THEN 1 ELSE 0 END,
            following_count = following_count - CASE WHEN id = OLD.follower_id THEN 1 ELSE 0 END
        WHERE id IN (OLD.follower_id, OLD.followee_id);
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER follows_count AFTER INSERT OR DELETE ON follows FOR EACH ROW EXECUTE FUNCTION follows_count();

CREATE TABLE notification_counters (
    user_id   text PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    last_seq  bigint NOT NULL DEFAULT 0
);

CREATE TABLE notifications (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id     text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    seq         bigint NOT NULL,
    kind        text NOT NULL CHECK (kind IN ('reply', 'like', 'report_handled', 'follow', 'followed_review',
                                              'store_review')),
    comment_id  text REFERENCES comments (id) ON DELETE CASCADE,
    store_id    text REFERENCES stores (id) ON DELETE CASCADE,
    created_at  timestamptz NOT NULL DEFAULT now(),
    read_at     timestamptz,
    UNIQUE (user_id, seq)
);
-- Lists newest first (`seq` orders a user's rows as they were made or bumped), the unread ones by the second.
CREATE INDEX notifications_unread ON notifications (user_id, seq) WHERE read_at IS NULL;
-- One unread like group per review.
CREATE UNIQUE INDEX notifications_like_group ON notifications (user_id, comment_id)
    WHERE kind = 'like' AND read_at IS NULL;
CREATE INDEX notifications_comment ON notifications (comment_id);
CREATE INDEX notifications_store ON notifications (store_id);

CREATE TABLE notification_actors (
    notification_id  bigint NOT NULL REFERENCES notifications (id) ON DELETE CASCADE,
    user_id          text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (notification_id, user_id)
);
CREATE INDEX notification_actors_user ON notification_actors (user_id);

-- The next `seq` of p_user; the counter row stays locked to the end of the transaction.
CREATE FUNCTION notification_next_seq(p_user text) RETURNS bigint LANGUAGE sql AS $$
    INSERT INTO notification_counters AS c (user_id, last_seq) VALUES (p_user, 1)
    ON CONFLICT (user_id) DO UPDATE SET last_seq = c.last_seq + 1
    RETURNING last_seq
$$;

-- Tells the listening servers that user p_user has notification p_seq (new or bumped); delivered at commit.
CREATE FUNCTION notification_announce(p_user text, p_seq bigint) RETURNS void LANGUAGE sql AS $$
    SELECT pg_notify('chidian_notifications', p_user || ' ' || p_seq)
$$;

-- One notification for p_user with one actor (none when p_actor is NULL); nothing for one's own act.
CREATE FUNCTION notification_add(p_user text, p_kind text, p_actor text, p_comment text, p_store text)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    s bigint;
    nid bigint;
BEGIN
    IF p_user IS NULL OR p_user = p_actor THEN
        RETURN;
    END IF;
    s := notification_next_seq(p_user);
    INSERT INTO notifications (user_id, seq, kind, comment_id, store_id)
    VALUES (p_user, s, p_kind, p_comment, p_store) RETURNING id INTO nid;
    IF p_actor IS NOT NULL THEN
        INSERT INTO notification_actors (notification_id, user_id) VALUES (nid, p_actor);
    END IF;
    PERFORM notification_announce(p_user, s);
END $$;

-- The store answered a review: its author hears of it (not when the author answers their own store's review).
CREATE FUNCTION notify_reply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    c record;
BEGIN
    IF cache_bulk() THEN
        RETURN NULL;
    END IF;
    SELECT author_id, store_id, hidden_at INTO c FROM comments WHERE id = NEW.comment_id;
    IF c.hidden_at IS NULL THEN
        PERFORM notification_add(c.author_id, 'reply', NEW.author_id, NEW.comment_id, c.store_id);
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER notify_reply AFTER INSERT ON comment_replies FOR EACH ROW EXECUTE FUNCTION notify_reply();

-- Likes group per review while unread: a new like adds its actor to the unread group and bumps it (new `seq`,
-- new time); unliking takes the actor out of the unread group, and an emptied group goes. Read groups stay.
CREATE FUNCTION notify_like() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    c record;
    nid bigint;
    s bigint;
BEGIN
    IF cache_bulk() THEN
        RETURN NULL;
    END IF;
    IF TG_OP = 'DELETE' THEN
        SELECT n.id INTO nid FROM comments cm
            JOIN notifications n ON n.user_id = cm.author_id AND n.comment_id = cm.id
                AND n.kind = 'like' AND n.read_at IS NULL
        WHERE cm.id = OLD.comment_id;
        IF nid IS NOT NULL THEN
            -- An emptied group goes with its last actor (notification_actors_gone).
            DELETE FROM notification_actors WHERE notification_id = nid AND user_id = OLD.user_id;
        END IF;
        RETURN NULL;
    END IF;
    SELECT author_id, store_id, hidden_at INTO c FROM comments WHERE id = NEW.comment_id;
    IF c.hidden_at IS NOT NULL OR c.author_id = NEW.user_id THEN
        RETURN NULL;
    END IF;
    s := notification_next_seq(c.author_id);
    -- The counter row's lock serialises this user's notifications, so the group cannot appear meanwhile.
    UPDATE notifications SET seq = s, created_at = now()
    WHERE user_id = c.author_id AND comment_id = NEW.comment_id AND kind = 'like' AND read_at IS NULL
    RETURNING id INTO nid;
    IF nid IS NULL THEN
        INSERT INTO notifications (user_id, seq, kind, comment_id, store_id)
        VALUES (c.author_id, s, 'like', NEW.comment_id, c.store_id) RETURNING id INTO nid;
    END IF;
    INSERT INTO notification_actors (notification_id, user_id) VALUES (nid, NEW.user_id)
    ON CONFLICT DO NOTHING;
    PERFORM notification_announce(c.author_id, s);
    RETURN NULL;
END $$;
CREATE TRIGGER notify_like AFTER INSERT OR DELETE ON comment_likes FOR EACH ROW EXECUTE FUNCTION notify_like();

-- A report closed (hidden, restored or dismissed): its reporter hears of it. The comment shows only while visible.
CREATE FUNCTION notify_report_handled() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    c record;
BEGIN
    IF cache_bulk() OR OLD.closed_at IS NOT NULL OR NEW.closed_at IS NULL THEN
        RETURN NULL;
    END IF;
    SELECT store_id INTO c FROM comments WHERE id = NEW.comment_id;
    PERFORM notification_add(NEW.reporter_id, 'report_handled', NULL, NEW.comment_id, c.store_id);
    RETURN NULL;
END $$;
CREATE TRIGGER notify_report_handled AFTER UPDATE OF closed_at ON reports
    FOR EACH ROW EXECUTE FUNCTION notify_report_handled();

-- Someone followed me; unfollowing takes back the unread notice of it.
CREATE FUNCTION notify_follow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF cache_bulk() THEN
        RETURN NULL;
    END IF;
    IF TG_OP = 'DELETE' THEN
        DELETE FROM notifications n WHERE n.user_id = OLD.followee_id AND n.kind = 'follow' AND n.read_at IS NULL
            AND EXISTS (SELECT 1 FROM notification_actors a WHERE a.notification_id = n.id AND a.user_id = OLD.follower_id);
        RETURN NULL;
    END IF;
    PERFORM notification_add(NEW.followee_id, 'follow', NEW.follower_id, NULL, NULL);
    RETURN NULL;
END $$;
CREATE TRIGGER notify_follow AFTER INSERT OR DELETE ON follows FOR EACH ROW EXECUTE FUNCTION notify_follow();

-- A new review: its store's manager hears of it (`store_review`) at once. Its author's followers
-- (`followed_review`) hear of it from notification_fanout, an outbox worked in batches by every server
-- (notification_fanout_step), because an author may have 100,000 followers: written inside the review's own
-- transaction that took 10 s, past every statement deadline.
CREATE TABLE notification_fanout (
    comment_id      text PRIMARY KEY REFERENCES comments (id) ON DELETE CASCADE,
    created_at      timestamptz NOT NULL DEFAULT now(),
    -- The last follow done, in (created_at, follower_id) order; NULL before the first batch.
    after_followed  timestamptz,
    after_follower  text
);

CREATE FUNCTION notify_review() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    manager text;
BEGIN
    IF cache_bulk() OR NEW.kind <> 'review' OR NEW.hidden_at IS NOT NULL OR NEW.store_archived THEN
        RETURN NULL;
    END IF;
    SELECT manager_id INTO manager FROM stores WHERE id = NEW.store_id;
    PERFORM notification_add(manager, 'store_review', NEW.author_id, NEW.id, NEW.store_id);
    IF EXISTS (SELECT 1 FROM follows WHERE followee_id = NEW.author_id) THEN
        INSERT INTO notification_fanout (comment_id) VALUES (NEW.id);
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER notify_review AFTER INSERT ON comments FOR EACH ROW EXECUTE FUNCTION notify_review();

-- One batch of the oldest outbox row no other server is working: `followed_review` for up to p_batch followers
-- (who followed before the review; never its store's manager, who has `store_review`), counters locked in user
-- id order. Returns how many followers it covered (0: nothing to do). A review hidden or gone meanwhile ends its
-- row.
CREATE FUNCTION notification_fanout_step(p_batch integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
    job notification_fanout;
    c record;
    done integer;
    last_at timestamptz;
    last_id text;
    announced bigint;
BEGIN
    SELECT * INTO job FROM notification_fanout ORDER BY created_at, comment_id LIMIT 1 FOR UPDATE SKIP LOCKED;
    IF NOT FOUND THEN
        RETURN 0;
    END IF;
    SELECT cm.author_id, cm.store_id, cm.created_at, s.manager_id INTO c
    FROM comments cm JOIN stores s ON s.id = cm.store_id
    WHERE cm.id = job.comment_id AND cm.hidden_at IS NULL AND NOT cm.store_archived;
    IF NOT FOUND THEN
        DELETE FROM notification_fanout WHERE comment_id = job.comment_id;
        RETURN 1;
    END IF;
    WITH batch AS (
        SELECT f.follower_id AS user_id, f.created_at AS followed FROM follows f
        WHERE f.followee_id = c.author_id AND f.created_at <= c.created_at
          AND (f.created_at, f.follower_id)
              > (COALESCE(job.after_followed, '-infinity'::timestamptz), COALESCE(job.after_follower, ''))
        ORDER BY f.created_at, f.follower_id
        LIMIT p_batch
    ), fans AS (
        SELECT user_id FROM batch WHERE user_id IS DISTINCT FROM c.manager_id ORDER BY user_id
    ), seqs AS (
        INSERT INTO notification_counters AS n (user_id, last_seq) SELECT user_id, 1 FROM fans
        ON CONFLICT (user_id) DO UPDATE SET last_seq = n.last_seq + 1
        RETURNING n.user_id, n.last_seq
    ), made AS (
        INSERT INTO notifications (user_id, seq, kind, comment_id, store_id)
        SELECT user_id, last_seq, 'followed_review', job.comment_id, c.store_id FROM seqs
        RETURNING id, user_id, seq
    ), actors AS (
        INSERT INTO notification_actors (notification_id, user_id) SELECT id, c.author_id FROM made
    ), sent AS (
        SELECT count(notification_announce(user_id, seq)) AS n FROM made
    ), last AS (
        SELECT followed, user_id FROM batch ORDER BY followed DESC, user_id DESC LIMIT 1
    )
    SELECT (SELECT count(*) FROM batch), (SELECT followed FROM last), (SELECT user_id FROM last), (SELECT n FROM sent)
    INTO done, last_at, last_id, announced;
    IF done < p_batch THEN
        DELETE FROM notification_fanout WHERE comment_id = job.comment_id;
    ELSE
        UPDATE notification_fanout SET after_followed = last_at, after_follower = last_id
        WHERE comment_id = job.comment_id;
    END IF;
    RETURN greatest(done, 1);
END $$;

-- A hidden review is in no notification: hiding deletes those about it (but a reporter's "handled" notice, which
-- then shows no comment).
CREATE FUNCTION notify_hidden() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.hidden_at IS NOT NULL AND OLD.hidden_at IS NULL THEN
        -- First the outbox row: this waits for a fan-out batch working it, whose rows the next statement then sees.
        DELETE FROM notification_fanout WHERE comment_id = NEW.id;
        DELETE FROM notifications WHERE comment_id = NEW.id AND kind <> 'report_handled';
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER notify_hidden AFTER UPDATE OF hidden_at ON comments FOR EACH ROW EXECUTE FUNCTION notify_hidden();

-- A notification of someone's act goes with its last actor (an unlike, an unfollow, a deleted account), so no list
-- shows "nobody liked your review".
CREATE FUNCTION notification_actors_gone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM notifications n WHERE n.id = OLD.notification_id AND n.kind <> 'report_handled'
        AND NOT EXISTS (SELECT 1 FROM notification_actors a WHERE a.notification_id = n.id);
    RETURN NULL;
END $$;
CREATE TRIGGER notification_actors_gone AFTER DELETE ON notification_actors
    FOR EACH ROW EXECUTE FUNCTION notification_actors_gone();
