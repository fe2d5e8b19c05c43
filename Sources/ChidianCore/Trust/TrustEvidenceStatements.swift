import Foundation
import PostgresNIO

/// The judge's reads (docs/TRUST.md): which reviews a due review's evidence touches, and each one's evidence.
enum TrustEvidenceStatements {
    /// The due reviews with the reviews judged beside them: the store's reviews within two weeks (a burst, a slow
    /// ring), recent reviews by accounts sharing a rare origin, and reviews sharing a text band by another author.
    static func related(_ ids: [String]) -> PostgresQuery {
        """
        WITH q AS (
            SELECT c.id, c.store_id, c.author_id, c.created_at FROM comments c
            WHERE c.id = ANY(\(ids)::text[]) AND c.kind = 'review'
        )
        SELECT id FROM q
        UNION
        SELECT s.id FROM q CROSS JOIN LATERAL (
            SELECT s.id FROM comments s
            WHERE s.store_id = q.store_id AND s.kind = 'review' AND s.hidden_at IS NULL
              AND s.created_at BETWEEN q.created_at - interval '14 days' AND q.created_at + interval '14 days'
            ORDER BY s.created_at DESC LIMIT 200
        ) s
        UNION
        SELECT s.id FROM q
        JOIN trust_origins o ON o.user_id = q.author_id
        JOIN trust_origins o2 ON o2.origin = o.origin AND o2.user_id <> q.author_id
        CROSS JOIN LATERAL (
            SELECT s.id FROM comments s
            WHERE s.author_id = o2.user_id AND s.kind = 'review' AND s.hidden_at IS NULL
              AND s.created_at > q.created_at - interval '30 days'
            ORDER BY s.created_at DESC LIMIT 20
        ) s
        WHERE (SELECT count(*) FROM (SELECT FROM trust_origins r WHERE r.origin = o.origin LIMIT \(TrustJudge.rareOrigin + 1)) r)
            <= \(TrustJudge.rareOrigin)
        UNION
        SELECT o.comment_id FROM q
        JOIN trust_text_bands b ON b.comment_id = q.id
        CROSS JOIN LATERAL (
            SELECT b2.comment_id FROM trust_text_bands b2
            WHERE b2.band = b.band AND b2.author_id <> q.author_id
              AND b2.created_at BETWEEN q.created_at - interval '30 days' AND q.created_at + interval '30 days'
            ORDER BY b2.created_at DESC LIMIT 20
        ) o
        LIMIT 2000
        """
    }

    /// Each review's evidence. Of an imported review (or one older than its account here) Chidian could not have
    /// seen the author's age, history and opens then: they are unknown, not absent (`known`).
    static func evidence(_ ids: [String]) -> PostgresQuery {
        """
        SELECT c.id, c.author_id, c.store_id, c.rating::int, c.created_at, u.created_at,
            NOT c.imported AND c.created_at >= u.created_at AS known,
            (SELECT count(*) FROM (
                (SELECT 1 FROM comments p WHERE p.author_id = c.author_id AND p.kind = 'review'
                    AND p.created_at < c.created_at LIMIT 3)
                UNION ALL
                (SELECT 1 FROM viewer_opens o WHERE o.viewer = 'u:' || c.author_id AND o.opened_at < c.created_at LIMIT 3)
                UNION ALL
                (SELECT 1 FROM favorites f WHERE f.user_id = c.author_id AND f.created_at < c.created_at LIMIT 3)
                UNION ALL
                (SELECT 1 FROM viewer_store_opens s WHERE s.viewer = 'u:' || c.author_id
                    AND s.first_opened_at < c.created_at LIMIT 3)
            ) a)::int AS prior,
            EXISTS (
                SELECT 1 FROM viewer_store_opens s
                WHERE s.viewer = 'u:' || c.author_id AND s.store_id = c.store_id AND s.first_opened_at < c.created_at
            ) AS opened,
            -- Where the week before the review begins: its settled mean is of the store's reviews before (SettledMeans).
            c.created_at - interval '7 days' AS settled_cut,
            -- The windows its new accounts are counted in (NewcomerWindows), as the database counts a day.
            c.created_at - interval '1 day' AS day_from, c.created_at + interval '1 day' AS day_to,
            c.created_at - interval '14 days' AS fortnight_from, c.created_at + interval '14 days' AS fortnight_to,
            coalesce((
                SELECT array_agg(t.origin ORDER BY t.origin) FROM trust_origins t
                WHERE t.user_id = c.author_id
                  AND (SELECT count(*) FROM (
                        SELECT FROM trust_origins r WHERE r.origin = t.origin LIMIT \(TrustJudge.rareOrigin + 1)) r)
                      <= \(TrustJudge.rareOrigin)
            ), '{}') AS origins,
            c.recommended, c.trust_score, c.verdict_by, c.body
        FROM comments c JOIN users u ON u.id = c.author_id
        WHERE c.id = ANY(\(ids)::text[]) AND c.kind = 'review'
        ORDER BY c.id
        """
    }

    /// Each store's live reviews from two weeks before the earliest of the reviews in it to two weeks after the
    /// latest, newest first, each with whether its author's account was under a week old then: what the new accounts
    /// around each review are counted from (`NewcomerWindows`), read once a store. At most `cap` a store, and never
    /// more than the per-review statement would read for the store's reviews; a store with more (one more row comes
    /// back) is counted by `newcomerCounts`.
    static func storeWindows(_ ids: [String], cap: Int) -> PostgresQuery {
        """
        WITH q AS (
            SELECT c.store_id, min(c.created_at) - interval '14 days' AS lo, max(c.created_at) + interval '14 days' AS hi,
                count(*) AS reviews
            FROM comments c
            WHERE c.id = ANY(\(ids)::text[]) AND c.kind = 'review'
            GROUP BY c.store_id
        )
        SELECT q.store_id, s.created_at, s.author_id, s.rating::int, s.newcomer
        FROM q CROSS JOIN LATERAL (
            SELECT s.created_at, s.id, s.author_id, s.rating,
                s.created_at >= u.created_at AND s.created_at < u.created_at + interval '7 days' AS newcomer
            FROM comments s JOIN users u ON u.id = s.author_id
            WHERE s.store_id = q.store_id AND s.hidden_at IS NULL AND s.kind = 'review'
              AND s.created_at BETWEEN q.lo AND q.hi
            ORDER BY s.created_at DESC, s.id DESC
            LIMIT least(\(cap), 2 * \(NewcomerWindows.sample) * q.reviews) + 1
        ) s
        ORDER BY q.store_id, s.created_at DESC, s.id DESC
        """
    }

    /// The new accounts around each review, one review at a time: for the reviews of stores too busy to read whole.
    static func newcomerCounts(_ ids: [String]) -> PostgresQuery {
        """
        SELECT c.id,
            (SELECT count(DISTINCT s.author_id)::int FROM (
                SELECT s.author_id, s.created_at FROM comments s
                WHERE s.store_id = c.store_id AND s.hidden_at IS NULL AND s.kind = 'review'
                  AND s.author_id <> c.author_id
                  AND s.created_at BETWEEN c.created_at - interval '1 day' AND c.created_at + interval '1 day'
                ORDER BY s.created_at DESC, s.id DESC LIMIT \(NewcomerWindows.sample)
             ) s JOIN users su ON su.id = s.author_id
             WHERE s.created_at >= su.created_at AND s.created_at < su.created_at + interval '7 days') AS newcomers,
            f.newcomers AS fortnight, f.alike AS fortnight_alike
        FROM comments c
        CROSS JOIN LATERAL (
            SELECT count(DISTINCT s.author_id)::int AS newcomers,
                   count(DISTINCT s.author_id) FILTER (WHERE s.rating = c.rating)::int AS alike
            FROM (
                SELECT s.author_id, s.created_at, s.rating FROM comments s
                WHERE s.store_id = c.store_id AND s.hidden_at IS NULL AND s.kind = 'review'
                  AND s.author_id <> c.author_id
                  AND s.created_at BETWEEN c.created_at - interval '14 days' AND c.created_at + interval '14 days'
                ORDER BY s.created_at DESC, s.id DESC LIMIT \(NewcomerWindows.sample)
            ) s JOIN users su ON su.id = s.author_id
            WHERE s.created_at >= su.created_at AND s.created_at < su.created_at + interval '7 days'
        ) f
        WHERE c.id = ANY(\(ids)::text[]) AND c.kind = 'review'
        """
    }

    /// The ratings each review's settled mean is taken from (`SettledMeans`), read once a store: its recommended live
    /// reviews older than a week before the latest of the reviews in it, newest first, as many as the earliest of
    /// them needs (`SettledMeans.depth` before its own week, so also those between the first week and the last).
    /// Reviews of one store come together (the store's neighbours in time are judged with each due review), and
    /// reading the store's history for each of them was most of the evidence's cost.
    static func settledRatings(_ ids: [String]) -> PostgresQuery {
        """
        WITH q AS (
            SELECT c.store_id, min(c.created_at) - interval '7 days' AS first_cut,
                max(c.created_at) - interval '7 days' AS last_cut
            FROM comments c
            WHERE c.id = ANY(\(ids)::text[]) AND c.kind = 'review'
            GROUP BY c.store_id
        )
        SELECT q.store_id, r.created_at, r.rating::int
        FROM q CROSS JOIN LATERAL (
            SELECT s.created_at, s.id, s.rating FROM comments s
            WHERE s.store_id = q.store_id AND s.hidden_at IS NULL AND s.kind = 'review' AND s.recommended
              AND s.created_at < q.last_cut
            ORDER BY s.created_at DESC, s.id DESC
            LIMIT \(SettledMeans.depth) + (
                SELECT count(*) FROM comments w
                WHERE w.store_id = q.store_id AND w.hidden_at IS NULL AND w.kind = 'review' AND w.recommended
                  AND w.created_at >= q.first_cut AND w.created_at < q.last_cut)
        ) r
        ORDER BY q.store_id, r.created_at DESC, r.id DESC
        """
    }

    /// Other authors' reviews of the last 30 days sharing a text band with each review: the copy candidates.
    static func copies(_ ids: [String]) -> PostgresQuery {
        """
        SELECT DISTINCT ON (b.comment_id, o.id) b.comment_id, o.id, o.author_id, o.body
        FROM trust_text_bands b
        CROSS JOIN LATERAL (
            SELECT b2.comment_id FROM trust_text_bands b2
            WHERE b2.band = b.band AND b2.author_id <> b.author_id
              AND b2.created_at BETWEEN b.created_at - interval '30 days' AND b.created_at + interval '30 days'
            ORDER BY b2.created_at DESC LIMIT 20
        ) b2
        JOIN comments o ON o.id = b2.comment_id AND o.hidden_at IS NULL
        WHERE b.comment_id = ANY(\(ids)::text[])
        ORDER BY b.comment_id, o.id
        LIMIT 5000
        """
    }
}
