-- Coupons (领券, issue #47): a store's manager offers a number of them; signed-in users claim them and show the
-- code at the table, where the manager redeems it. docs/COUPONS.md says why the claim is what it is; in short:
--
--   coupons         `claimed` is the exact number of claims: a claim raises it with one conditional UPDATE
--                   (`claimed < stock`) in the claim's transaction, so claims never exceed the stock whatever
--                   the concurrency or the number of servers, and a claim not committed was never counted.
--   coupon_holders  how many of a coupon each user holds: the per-user limit is a CHECK on one row per user and
--                   coupon, taken before the coupon's row so that a user's own retries queue on their row, not
--                   on the coupon everyone wants.
--   coupon_claims   the claims; (user_id, idempotency_key) is unique, so a key retried after a lost answer finds
--                   its claim and never makes a second; `code` is unique by constraint.

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

CREATE TABLE coupon_holders (
    coupon_id  text NOT NULL REFERENCES coupons (id) ON DELETE CASCADE,
    user_id    text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    held       smallint NOT NULL CHECK (held BETWEEN 1 AND 10),
    PRIMARY KEY (coupon_id, user_id)
);

CREATE TABLE coupon_claims (
    id               text PRIMARY KEY DEFAULT new_id('q_'),
    coupon_id        text NOT NULL REFERENCES coupons (id) ON DELETE CASCADE,
    store_id         text NOT NULL,
    -- Kept when the account is deleted: the claim still counts against the stock.
    user_id          text REFERENCES users (id) ON DELETE SET NULL,
    code             text NOT NULL UNIQUE CHECK (code ~ '^[2-9A-HJ-NP-Z]{12}$'),
    idempotency_key  text,
    claimed_at       timestamptz NOT NULL DEFAULT now(),
    expires_at       timestamptz NOT NULL,
    redeemed_at      timestamptz,
    UNIQUE (user_id, idempotency_key)
);
CREATE INDEX coupon_claims_user ON coupon_claims (user_id, claimed_at DESC, id DESC);
CREATE INDEX coupon_claims_coupon ON coupon_claims (coupon_id);

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
