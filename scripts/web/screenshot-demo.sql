-- Screenshots only: what the demo seed lacks (it has no traffic and its import writes no notifications): 90 days
-- of figures for store s001 and the platform for the insight charts, and a few notifications for User1.
-- Deterministic: the same every run.
INSERT INTO store_days (store_id, day, views, imp_daily, imp_feed, imp_search, imp_near, imp_pick,
                        clk_daily, clk_feed, clk_search, clk_near, clk_pick, visitors)
SELECT s.id, d.day, v, v * 4, v * 3, v * 2, v, v / 3, v / 6, v / 8, v / 5, v / 10, v / 12, (v * 0.7)::int
FROM stores s,
     generate_series(current_date - 89, current_date - 1, interval '1 day') AS g (at),
     LATERAL (SELECT g.at::date AS day) d,
     LATERAL (SELECT (120 + 60 * sin(extract(doy FROM d.day) / 4.0) + abs(hashtext(d.day::text)) % 40)::int AS v) x
WHERE s.id = 's001'
ON CONFLICT DO NOTHING;

INSERT INTO platform_days (day, signed_in, total)
SELECT g.at::date, s, CASE WHEN s THEN 300 + abs(hashtext(g.at::text)) % 120 ELSE 900 + abs(hashtext(g.at::text || 'v')) % 400 END
FROM generate_series(current_date - 89, current_date - 1, interval '1 day') AS g (at), (VALUES (true), (false)) AS b (s)
ON CONFLICT DO NOTHING;

-- Popular times for s001: eight weeks of views by hour, busy at lunch and dinner, busier at weekends.
INSERT INTO store_hours (store_id, day, hour, views)
SELECT 's001', g.at::date, h, (CASE WHEN h BETWEEN 11 AND 13 THEN 14 WHEN h BETWEEN 17 AND 20 THEN 22
                                    WHEN h BETWEEN 9 AND 22 THEN 5 ELSE 0 END
                               * CASE WHEN extract(isodow FROM g.at) >= 6 THEN 1.5 ELSE 1 END)::int
FROM generate_series(current_date - 55, current_date, interval '1 day') AS g (at), generate_series(0, 23) AS h
ON CONFLICT DO NOTHING;

-- A purchase every Monday, and the store's reviews spread over the period.
INSERT INTO promotions (store_id, buyer_id, amount, created_at)
SELECT s.id, s.manager_id, 100 + abs(hashtext(g.at::text)) % 200, g.at + interval '10 hours'
FROM stores s, generate_series(current_date - 89, current_date - 1, interval '1 day') AS g (at)
WHERE s.id = 's001' AND extract(isodow FROM g.at) = 1;

UPDATE comments SET created_at = now() - (abs(hashtext(id)) % 89 + 1) * interval '1 day'
WHERE store_id = 's001' AND kind = 'review';

-- Something on User1's notifications page: User2 and User3 like User1's newest review (one like group), the
-- store answers it, and User2 follows User1 (the triggers write the notifications, as for any write).
INSERT INTO comment_likes (comment_id, user_id)
SELECT c.id, u.id FROM (
    SELECT id FROM comments WHERE author_id = 'u001' AND kind = 'review' AND hidden_at IS NULL
    ORDER BY created_at DESC, id DESC LIMIT 1
) c, (VALUES ('u002'), ('u003')) AS u (id)
ON CONFLICT DO NOTHING;
INSERT INTO comment_replies (comment_id, author_id, body)
SELECT c.id, s.manager_id, '谢谢支持，欢迎常来！' FROM comments c JOIN stores s ON s.id = c.store_id
WHERE c.author_id = 'u001' AND c.kind = 'review' AND c.hidden_at IS NULL
  AND NOT EXISTS (SELECT 1 FROM comment_replies r WHERE r.comment_id = c.id)
ORDER BY c.created_at DESC, c.id DESC LIMIT 1;
INSERT INTO follows (follower_id, followee_id) VALUES ('u002', 'u001') ON CONFLICT DO NOTHING;

-- 领券: a live coupon of s001 (its store page and its manager's page show it), claimed by User1 (我的券).
INSERT INTO coupons (id, store_id, title, face_value, min_spend, stock, claimed, per_user, ends_at, valid_days)
VALUES ('k_demo', 's001', '满100减20', 20, 100, 100, 1, 1, now() + interval '7 days', 30);
INSERT INTO coupon_holders (coupon_id, user_id, held) SELECT 'k_demo', id, 1 FROM users WHERE name = 'User1';
INSERT INTO coupon_claims (coupon_id, store_id, user_id, code, expires_at)
SELECT 'k_demo', 's001', id, 'CHDN2345WXYZ', now() + interval '30 days' FROM users WHERE name = 'User1';

-- Trust: one of s001's reviews judged not recommended, with what the judge saw, so the store page shows its
-- "1 条未推荐的评价" link and the admins' page its queue of suspicious reviews.
UPDATE comments SET recommended = false, trust_score = 5.2 WHERE id = 'c196';
INSERT INTO comment_signals (comment_id, kind, detail) VALUES
    ('c196', 'new_account', 'account 2 h old'),
    ('c196', 'burst', '6 other new accounts reviewed the store within a day'),
    ('c196', 'shared_origin', '3 other accounts from the same address or device')
ON CONFLICT DO NOTHING;
