-- Coupons (领券, issue #47): a store's manager offers a number of them; signed-in users claim them and show the
-- code at the table, where the manager redeems it. docs/COUPONS.md says why the claim is what it is; in short:
--
--   coupons         `claimed` is the exact number of claims: a claim raises it with one conditional UPDATE
--                   (`claimed < stock`) in the claim's transaction, so claims never exceed the stock whatever
--                   the concurrency or the number of servers, and a claim not committed was never counted.
--   coupon_holders  how many of a coupon each user holds: the per-user limit is a CHECK on one row per user and
--                   coupon, taken before the coupon's row so that a user's own retries queue on their row, not
--                   on the coupon everyone wants.
--   coupon_claims   the claims; (user_id, coupon_id, idempotency_key) is unique, so a key retried after a lost
--                   answer finds its claim and never makes a second; `code` is unique by constraint.
--
-- A claim is one call of coupon_claim (below): one statement, so the coupon's row is locked only from its UPDATE,
-- the function's last step, to the commit inside the same round trip, never across a client's round trips.

CREATE TABLE coupons (
    id           text PRIMARY KEY DEFAULT new_id('k_'),
    store_id     text NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
    title        text NOT NULL CHECK (title <> ''),  -- 1–40 characters as Swift counts them (CouponRules)
    face_value   integer NOT NULL CHECK (face_value BETWEEN 1 AND 10000),
    min_spend    integer NOT NULL DEFAULT 0 CHECK (min_spend BETWEEN 0 AND 100000),
    stock        integer NOT NULL CHECK (stock BETWEEN 1 AND 1000000),
    claimed      integer NOT NULL DEFAULT 0,
    per_user     smallint NOT NULL DEFAULT 1 CHECK (per_user BETWEEN 1 AND 10),
    starts_at    timestamptz NOT NULL DEFAULT now(),
    ends_at      timestamptz NOT NULL,
    valid_days   smallint NOT NULL DEFAULT 30 CHECK (valid_days BETWEEN 1 AND 365),
    created_at   timestamptz NOT NULL DEFAULT now(),
    CHECK (claimed BETWEEN 0 AND stock),
    CHECK (ends_at > starts_at)
);
-- A store's coupons by when they end (the list: live and upcoming, then the last 30 days).
CREATE INDEX coupons_store ON coupons (store_id, ends_at DESC, id);

-- No foreign key to coupons from the two tables below: a key check takes FOR KEY SHARE on the coupon's row, and
-- with every claim of a rush holding one beside the claim's own update, PostgreSQL turns the row's lockers into
-- ever-growing multixacts: pgbench of coupon_claim ran at 229/s with the keys and 2,513/s without. Deleting a coupon
-- (only with its store) deletes its holders and claims by the trigger below instead.
CREATE TABLE coupon_holders (
    coupon_id  text NOT NULL,
    user_id    text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    held       smallint NOT NULL CHECK (held BETWEEN 1 AND 10),
    PRIMARY KEY (coupon_id, user_id)
);

CREATE TABLE coupon_claims (
    id               text PRIMARY KEY DEFAULT new_id('q_'),
    coupon_id        text NOT NULL,
    store_id         text NOT NULL,
    -- Kept when the account is deleted: the claim still counts against the stock.
    user_id          text REFERENCES users (id) ON DELETE SET NULL,
    code             text NOT NULL UNIQUE CHECK (code ~ '^[2-9A-HJ-NP-Z]{12}$'),
    idempotency_key  text,
    claimed_at       timestamptz NOT NULL DEFAULT now(),
    expires_at       timestamptz NOT NULL,
    redeemed_at      timestamptz,
    UNIQUE (user_id, coupon_id, idempotency_key)
);
CREATE INDEX coupon_claims_user ON coupon_claims (user_id, claimed_at DESC, id DESC);
CREATE INDEX coupon_claims_coupon ON coupon_claims (coupon_id);

CREATE FUNCTION coupons_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM coupon_holders WHERE coupon_id = OLD.id;
    DELETE FROM coupon_claims WHERE coupon_id = OLD.id;
    RETURN NULL;
END $$;
CREATE TRIGGER coupons_deleted AFTER DELETE ON coupons FOR EACH ROW EXECUTE FUNCTION coupons_deleted();

-- A store shows `couponCount` (its live coupons with stock left), computed when written from the windows of its
-- coupons not sold out; the store's cached entry hears `s:<store>` when that list changes: a coupon offered,
-- ended or deleted, or its last one claimed. Other claims change nothing a store shows.
CREATE FUNCTION coupons_cache_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND (OLD.claimed < OLD.stock) = (NEW.claimed < NEW.stock)
            AND OLD.starts_at = NEW.starts_at AND OLD.ends_at = NEW.ends_at THEN
        RETURN NULL;
    END IF;
    PERFORM cache_notify('s:' || CASE WHEN TG_OP = 'DELETE' THEN OLD.store_id ELSE NEW.store_id END);
    RETURN NULL;
END $$;
CREATE TRIGGER coupons_cache_notify AFTER INSERT OR DELETE OR UPDATE ON coupons
    FOR EACH ROW EXECUTE FUNCTION coupons_cache_notify();

-- `coupon_expiring`: a holder hears 24 h before an unused claim expires (at once for a claim valid one day).
-- `CouponReminders` in each server calls coupon_reminders every minute; a claim is told once (`reminded_at`),
-- whichever server gets it (SKIP LOCKED).
ALTER TABLE coupon_claims ADD COLUMN reminded_at timestamptz;
CREATE INDEX coupon_claims_due ON coupon_claims (expires_at) WHERE redeemed_at IS NULL AND reminded_at IS NULL;

ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check CHECK (kind IN ('reply', 'like', 'report_handled',
    'follow', 'followed_review', 'store_review', 'coupon_expiring'));

CREATE FUNCTION coupon_reminders(p_limit int) RETURNS int LANGUAGE plpgsql AS $$
DECLARE
    due record;
    told int := 0;
BEGIN
    FOR due IN
        UPDATE coupon_claims q SET reminded_at = now()
        WHERE q.id IN (
            SELECT id FROM coupon_claims
            WHERE redeemed_at IS NULL AND reminded_at IS NULL AND expires_at <= now() + interval '24 hours'
            ORDER BY expires_at LIMIT p_limit FOR UPDATE SKIP LOCKED)
        RETURNING q.user_id, q.store_id, q.expires_at
    LOOP
        IF due.expires_at > now() THEN
            PERFORM notification_add(due.user_id, 'coupon_expiring', NULL, NULL, due.store_id);
            told := told + 1;
        END IF;
    END LOOP;
    RETURN told;
END $$;

-- Insights' days count a store's claims and redemptions by local day.
CREATE INDEX coupon_claims_store ON coupon_claims (store_id, claimed_at);
CREATE INDEX coupon_claims_store_redeemed ON coupon_claims (store_id, redeemed_at) WHERE redeemed_at IS NOT NULL;

-- The claim, in one statement: the user's holder row (perUser), the claim with its code, then the coupon's row
-- (stock and window), last so that its lock is held the least. A refusal raises P0001 with the problem code as
-- its message, which rolls back every step, in the contract's order: 'coupon_not_found' (unknown, or its store
-- archived), 'sold_out', 'own_store', 'coupon_not_live', 'claim_limit', and 'sold_out' again for a race lost at
-- the last step. The answer is the claim as its holder sees it (CouponRepository.claimView's columns).
CREATE FUNCTION coupon_claim(p_coupon text, p_user text, p_code text, p_key text)
RETURNS TABLE (id text, store_id text, title text, face_value int, min_spend int, stock int, claimed int,
               per_user int, starts_at timestamptz, ends_at timestamptz, valid_days int, held int, claim_id text,
               code text, claimed_at timestamptz, expires_at timestamptz, redeemed_at timestamptz)
LANGUAGE plpgsql AS $$
DECLARE
    c        coupons;
    manager  text;
    n_held   int;
    n_claimed int;
    q        coupon_claims;
BEGIN
    SELECT * INTO c FROM coupons k WHERE k.id = p_coupon;
    SELECT s.manager_id INTO manager FROM stores s WHERE s.id = c.store_id AND s.archived_at IS NULL;
    IF c.id IS NULL OR manager IS NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'coupon_not_found';
    END IF;
    IF c.claimed >= c.stock AND c.starts_at <= now() AND c.ends_at > now() THEN
        RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'sold_out';
    END IF;
    IF manager = p_user THEN
        RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'own_store';
    END IF;
    IF c.starts_at > now() OR c.ends_at <= now() THEN
        RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'coupon_not_live';
    END IF;
    INSERT INTO coupon_holders AS h (coupon_id, user_id, held) VALUES (p_coupon, p_user, 1)
    ON CONFLICT (coupon_id, user_id) DO UPDATE SET held = h.held + 1 WHERE h.held < c.per_user
    RETURNING h.held INTO n_held;
    IF NOT FOUND THEN
        RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'claim_limit';
    END IF;
    INSERT INTO coupon_claims AS x (coupon_id, store_id, user_id, code, idempotency_key, expires_at)
    VALUES (p_coupon, c.store_id, p_user, p_code, p_key, now() + make_interval(days => c.valid_days))
    RETURNING x.* INTO q;
    UPDATE coupons k SET claimed = k.claimed + 1
    WHERE k.id = p_coupon AND k.claimed < k.stock AND k.starts_at <= now() AND k.ends_at > now()
    RETURNING k.claimed INTO n_claimed;
    IF NOT FOUND THEN
        SELECT * INTO c FROM coupons k WHERE k.id = p_coupon;
        RAISE EXCEPTION USING ERRCODE = 'P0001',
            MESSAGE = CASE WHEN c.starts_at > now() OR c.ends_at <= now() THEN 'coupon_not_live' ELSE 'sold_out' END;
    END IF;
    RETURN QUERY SELECT c.id, c.store_id, c.title, c.face_value, c.min_spend, c.stock, n_claimed, c.per_user::int,
        c.starts_at, c.ends_at, c.valid_days::int, n_held, q.id, q.code, q.claimed_at, q.expires_at, q.redeemed_at;
END $$;
