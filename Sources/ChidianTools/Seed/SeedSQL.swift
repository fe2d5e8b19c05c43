import ChidianCore
import PostgresNIO

/// The SQL of a seed import. Every merge compares content first, so an unchanged row is not written at all.
extension SeedWriter {
    static let stagingTables = """
        CREATE TEMP TABLE seed_users (id text, name text, password_hash text, role text, avatar text,
            created_at timestamptz, position integer) ON COMMIT DROP;
        CREATE TEMP TABLE seed_categories (id text, name text, created_at timestamptz, position integer) ON COMMIT DROP;
        CREATE TEMP TABLE seed_stores (id text, name text, category text, category_id text, manager_id text,
            sum_cost bigint, description text, address text, archived boolean, created_at timestamptz,
            updated_at timestamptz, version integer, position integer, lat float8, lng float8, hours jsonb,
            time_zone text) ON COMMIT DROP;
        CREATE TEMP TABLE seed_store_images (store_id text, position smallint, image_id text) ON COMMIT DROP;
        CREATE TEMP TABLE seed_favorites (user_id text, store_id text, created_at timestamptz) ON COMMIT DROP;
        CREATE TEMP TABLE seed_promotions (id text, store_id text, buyer_id text, amount bigint, created_at timestamptz)
            ON COMMIT DROP;
        CREATE TEMP TABLE seed_comments (id text, kind text, store_id text, author_id text, rating smallint, body text,
            hidden boolean, hidden_at timestamptz, created_at timestamptz, updated_at timestamptz, version integer,
            position integer, taste smallint, environment smallint, service smallint, price_per_person integer)
            ON COMMIT DROP;
        CREATE TEMP TABLE seed_comment_images (comment_id text, position smallint, image_id text) ON COMMIT DROP;
        CREATE TEMP TABLE seed_comment_likes (comment_id text, user_id text) ON COMMIT DROP;
        CREATE TEMP TABLE seed_comment_replies (comment_id text, body text, created_at timestamptz,
            updated_at timestamptz) ON COMMIT DROP;
        CREATE TEMP TABLE seed_reports (id text, comment_id text, reporter_id text, reason text, note text,
            created_at timestamptz, closed_at timestamptz) ON COMMIT DROP;
        CREATE TEMP TABLE seed_images (id text, sha256 bytea, content_type text, width integer, height integer,
            bytes integer, owner text, data bytea) ON COMMIT DROP;
        """

    /// An element without `createdAt` is dated by its place in its array (the original app appended, so the array
    /// is in time order): one second apart, the last element a second before the import.
    static func arrayTime(_ table: String) -> String {
        "now() - ((SELECT max(position) FROM \(table)) - s.position + 1) * interval '1 second'"
    }

    /// Each distinct content once; blobs already stored are not written again.
    static let mergeBlobs: PostgresQuery = """
        INSERT INTO image_blobs (sha256, content_type, width, height, byte_count, bytes)
        SELECT DISTINCT ON (sha256) sha256, content_type, width, height, bytes, data FROM seed_images s
        WHERE NOT EXISTS (SELECT 1 FROM image_blobs b WHERE b.sha256 = s.sha256)
        ORDER BY sha256
        ON CONFLICT (sha256) DO NOTHING
        """

    static let mergeImages = """
        WITH merged AS (
            INSERT INTO images AS i (id, sha256, content_type, width, height, bytes)
            SELECT id, sha256, content_type, width, height, bytes FROM seed_images
            ON CONFLICT (id) DO UPDATE SET sha256 = EXCLUDED.sha256, content_type = EXCLUDED.content_type,
                width = EXCLUDED.width, height = EXCLUDED.height, bytes = EXCLUDED.bytes
            WHERE i.sha256 IS DISTINCT FROM EXCLUDED.sha256
            RETURNING 1
        )
        SELECT count(*)::int FROM merged
        """

    /// An image's uploader is whoever attaches it first in the seed; only an unowned image is claimed.
    static let setImageOwners: PostgresQuery = """
        UPDATE images i SET uploader_id = s.owner FROM seed_images s
        WHERE i.id = s.id AND i.uploader_id IS NULL AND s.owner IS NOT NULL
          AND EXISTS (SELECT 1 FROM users u WHERE u.id = s.owner)
        """

    static var mergeUsers: String {
        """
        WITH merged AS (
            INSERT INTO users AS u (id, name, password_hash, role, avatar_image_id, created_at, updated_at)
            SELECT s.id, s.name, s.password_hash, s.role, s.avatar, coalesce(s.created_at, e.created_at, \(arrayTime("seed_users"))),
                   coalesce(s.created_at, e.created_at, \(arrayTime("seed_users")))
            FROM seed_users s LEFT JOIN users e ON e.id = s.id
            ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, password_hash = EXCLUDED.password_hash,
                role = EXCLUDED.role, avatar_image_id = EXCLUDED.avatar_image_id, created_at = EXCLUDED.created_at,
                updated_at = now(), version = u.version + 1
            WHERE (u.name, u.password_hash, u.role, u.avatar_image_id, u.created_at)
                IS DISTINCT FROM (EXCLUDED.name, EXCLUDED.password_hash, EXCLUDED.role, EXCLUDED.avatar_image_id,
                                  EXCLUDED.created_at)
            RETURNING 1
        )
        SELECT count(*)::int FROM merged
        """
    }

    /// categories.json first (an export's every category, with ids and times), then the names store.json uses.
    static var mergeListedCategories: String {
        """
        INSERT INTO categories (id, name, created_at, updated_at)
        SELECT s.id, s.name, coalesce(s.created_at, \(arrayTime("seed_categories"))), coalesce(s.created_at, \(arrayTime("seed_categories")))
        FROM seed_categories s
        WHERE NOT EXISTS (SELECT 1 FROM categories c WHERE lower(c.name) = lower(s.name) OR c.id = s.id)
        ON CONFLICT DO NOTHING
        """
    }

    /// Categories are named in store.json; a new name becomes a category (keeping an exported id when given).
    static let mergeCategories: PostgresQuery = """
        INSERT INTO categories (id, name)
        SELECT DISTINCT ON (lower(s.category)) coalesce(s.category_id, new_id('c_')), s.category
        FROM seed_stores s
        WHERE NOT EXISTS (SELECT 1 FROM categories c WHERE lower(c.name) = lower(s.category))
          AND NOT EXISTS (SELECT 1 FROM categories c WHERE c.id = s.category_id)
        ORDER BY lower(s.category), s.category_id NULLS LAST
        ON CONFLICT DO NOTHING
        """

    static var mergeStores: String {
        """
        WITH merged AS (
            INSERT INTO stores AS st (id, name, category_id, manager_id, description, address, archived_at,
                                      created_at, updated_at, version, location, hours, time_zone)
            SELECT s.id, s.name,
                   coalesce((SELECT c.id FROM categories c WHERE c.id = s.category_id AND lower(c.name) = lower(s.category)),
                            (SELECT c.id FROM categories c WHERE lower(c.name) = lower(s.category))),
                   s.manager_id, s.description, s.address,
                   CASE WHEN s.archived THEN coalesce(e.archived_at, now()) END,
                   coalesce(s.created_at, e.created_at, \(arrayTime("seed_stores"))),
                   coalesce(s.updated_at, CASE WHEN e.id IS NULL THEN coalesce(s.created_at, \(arrayTime("seed_stores"))) ELSE now() END),
                   coalesce(s.version, e.version + 1, 1),
                   ST_SetSRID(ST_MakePoint(s.lng, s.lat), 4326)::geography, s.hours, s.time_zone
            FROM seed_stores s LEFT JOIN stores e ON e.id = s.id
            ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, category_id = EXCLUDED.category_id,
                manager_id = EXCLUDED.manager_id, description = EXCLUDED.description, address = EXCLUDED.address,
                archived_at = EXCLUDED.archived_at, created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at,
                version = EXCLUDED.version, location = EXCLUDED.location, hours = EXCLUDED.hours,
                time_zone = EXCLUDED.time_zone
            WHERE (st.name, st.category_id, st.manager_id, st.description, st.address, st.archived_at IS NULL, st.created_at,
                   st.location::text, st.hours, st.time_zone)
                IS DISTINCT FROM (EXCLUDED.name, EXCLUDED.category_id, EXCLUDED.manager_id, EXCLUDED.description,
                                  EXCLUDED.address, EXCLUDED.archived_at IS NULL, EXCLUDED.created_at,
                                  EXCLUDED.location::text, EXCLUDED.hours, EXCLUDED.time_zone)
            RETURNING 1
        )
        SELECT count(*)::int FROM merged
        """
    }

    /// The carousel is replaced only for stores whose image list differs.
    static let mergeStoreImages = """
        CREATE TEMP TABLE seed_changed_stores ON COMMIT DROP AS
        SELECT s.id FROM seed_stores s
        WHERE coalesce((SELECT array_agg(image_id ORDER BY position) FROM seed_store_images x WHERE x.store_id = s.id), '{}')
              IS DISTINCT FROM
              coalesce((SELECT array_agg(image_id ORDER BY position) FROM store_images x WHERE x.store_id = s.id), '{}');
        DELETE FROM store_images WHERE store_id IN (SELECT id FROM seed_changed_stores);
        INSERT INTO store_images (store_id, position, image_id)
        SELECT store_id, position, image_id FROM seed_store_images WHERE store_id IN (SELECT id FROM seed_changed_stores);
        """

    /// Listed purchases keep their ids and times (the ledger's trigger adds each to ad_spend once).
    static let mergePromotions: PostgresQuery = """
        INSERT INTO promotions (id, store_id, buyer_id, amount, created_at)
        SELECT s.id, s.store_id, s.buyer_id, s.amount, s.created_at FROM seed_promotions s
        ORDER BY s.created_at, s.id
        ON CONFLICT (id) DO NOTHING
        """

    /// The ledger only grows: a higher sumCost than its purchases add up to is recorded as one adjustment purchase.
    static let adSpendAdjustments: PostgresQuery = """
        INSERT INTO promotions (store_id, buyer_id, amount)
        SELECT s.id, NULL, s.sum_cost - st.ad_spend FROM seed_stores s JOIN stores st ON st.id = s.id
        WHERE s.sum_cost > st.ad_spend
        """

    static let mergeFavorites = """
        WITH merged AS (
            INSERT INTO favorites AS f (user_id, store_id, created_at)
            SELECT user_id, store_id, coalesce(created_at, now()) FROM seed_favorites
            ON CONFLICT (user_id, store_id) DO UPDATE SET created_at = EXCLUDED.created_at
            WHERE f.created_at IS DISTINCT FROM EXCLUDED.created_at
              AND EXISTS (SELECT 1 FROM seed_favorites s
                          WHERE s.user_id = f.user_id AND s.store_id = f.store_id AND s.created_at IS NOT NULL)
            RETURNING 1
        )
        SELECT count(*)::int FROM merged
        """

    /// Row triggers are off while this runs, so the store's category copy is filled here.
    static var mergeComments: String {
        """
        WITH merged AS (
            INSERT INTO comments AS c (id, kind, store_id, author_id, rating, body, category_id, store_archived,
                                       hidden_at, created_at, updated_at, version, taste, environment, service,
                                       price_per_person, imported)
            SELECT s.id, s.kind, s.store_id, s.author_id, CASE WHEN s.kind = 'review' THEN s.rating END, s.body,
                   st.category_id, st.archived_at IS NOT NULL,
                   CASE WHEN s.hidden THEN coalesce(s.hidden_at, e.hidden_at, now()) END,
                   coalesce(s.created_at, e.created_at, \(arrayTime("seed_comments"))),
                   coalesce(s.updated_at, CASE WHEN e.id IS NULL THEN coalesce(s.created_at, \(arrayTime("seed_comments"))) ELSE now() END),
                   coalesce(s.version, e.version + 1, 1), s.taste, s.environment, s.service, s.price_per_person, true
            FROM seed_comments s JOIN stores st ON st.id = s.store_id LEFT JOIN comments e ON e.id = s.id
            ON CONFLICT (id) DO UPDATE SET kind = EXCLUDED.kind, store_id = EXCLUDED.store_id,
                author_id = EXCLUDED.author_id, rating = EXCLUDED.rating, body = EXCLUDED.body,
                category_id = EXCLUDED.category_id, store_archived = EXCLUDED.store_archived,
                hidden_at = EXCLUDED.hidden_at, created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at,
                version = EXCLUDED.version, taste = EXCLUDED.taste, environment = EXCLUDED.environment,
                service = EXCLUDED.service, price_per_person = EXCLUDED.price_per_person
            WHERE (c.kind, c.store_id, c.author_id, c.rating, c.body, c.hidden_at, c.created_at, c.taste, c.environment,
                   c.service, c.price_per_person)
                IS DISTINCT FROM (EXCLUDED.kind, EXCLUDED.store_id, EXCLUDED.author_id, EXCLUDED.rating, EXCLUDED.body,
                                  EXCLUDED.hidden_at, EXCLUDED.created_at, EXCLUDED.taste, EXCLUDED.environment,
                                  EXCLUDED.service, EXCLUDED.price_per_person)
            RETURNING c.id, c.kind
        ), queued AS (
            -- Imported reviews are judged like any other (docs/TRUST.md); `chidian seed` judges them before it ends.
            INSERT INTO trust_queue (comment_id, due_at) SELECT id, now() FROM merged WHERE kind = 'review'
            ON CONFLICT (comment_id) DO UPDATE SET due_at = EXCLUDED.due_at
        )
        SELECT count(*)::int FROM merged
        """
    }

    /// Signature dishes of every store the seed touched, from the search summaries it just rebuilt.
    static let recountDishes: PostgresQuery = """
        SELECT store_dishes_recount(x.id)
        FROM (SELECT DISTINCT store_id AS id FROM seed_comments UNION SELECT id FROM seed_stores) x
        """

    /// Likes only add: a like made since the export is kept (as favorites are). The trigger of migration 010
    /// counts each new one.
    static let mergeCommentLikes: PostgresQuery = """
        INSERT INTO comment_likes (comment_id, user_id)
        SELECT DISTINCT comment_id, user_id FROM seed_comment_likes
        ON CONFLICT DO NOTHING
        """

    /// Replies by the store's manager as of the import; a review the seed gives none keeps its own.
    static let mergeCommentReplies: PostgresQuery = """
        INSERT INTO comment_replies AS r (comment_id, author_id, body, created_at, updated_at)
        SELECT s.comment_id, st.manager_id, s.body, coalesce(s.created_at, now()), coalesce(s.updated_at, s.created_at, now())
        FROM seed_comment_replies s JOIN comments c ON c.id = s.comment_id JOIN stores st ON st.id = c.store_id
        ON CONFLICT (comment_id) DO UPDATE SET author_id = EXCLUDED.author_id, body = EXCLUDED.body,
            created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at
        WHERE (r.author_id, r.body, r.created_at, r.updated_at)
            IS DISTINCT FROM (EXCLUDED.author_id, EXCLUDED.body, EXCLUDED.created_at, EXCLUDED.updated_at)
          AND EXISTS (SELECT 1 FROM seed_comment_replies x WHERE x.comment_id = r.comment_id AND x.created_at IS NOT NULL)
        """

    /// Reports by id; one already stored keeps its own times unless the seed gives them.
    static let mergeReports: PostgresQuery = """
        INSERT INTO reports AS r (id, comment_id, reporter_id, reason, note, created_at, closed_at)
        SELECT s.id, s.comment_id, s.reporter_id, s.reason, s.note, coalesce(s.created_at, now()), s.closed_at
        FROM seed_reports s
        ON CONFLICT (id) DO UPDATE SET reason = EXCLUDED.reason, note = EXCLUDED.note, closed_at = EXCLUDED.closed_at,
            created_at = coalesce((SELECT x.created_at FROM seed_reports x WHERE x.id = r.id), r.created_at)
        WHERE (r.reason, r.note, r.closed_at) IS DISTINCT FROM (EXCLUDED.reason, EXCLUDED.note, EXCLUDED.closed_at)
        """

    static let mergeCommentImages = """
        CREATE TEMP TABLE seed_changed_comments ON COMMIT DROP AS
        SELECT s.id FROM seed_comments s
        WHERE EXISTS (SELECT 1 FROM seed_comment_images x WHERE x.comment_id = s.id)
           OR EXISTS (SELECT 1 FROM comment_images x WHERE x.comment_id = s.id);
        DELETE FROM seed_changed_comments s
        WHERE coalesce((SELECT array_agg(image_id ORDER BY position) FROM seed_comment_images x WHERE x.comment_id = s.id), '{}')
              IS NOT DISTINCT FROM
              coalesce((SELECT array_agg(image_id ORDER BY position) FROM comment_images x WHERE x.comment_id = s.id), '{}');
        DELETE FROM comment_images WHERE comment_id IN (SELECT id FROM seed_changed_comments);
        INSERT INTO comment_images (comment_id, position, image_id)
        SELECT comment_id, position, image_id FROM seed_comment_images
        WHERE comment_id IN (SELECT id FROM seed_changed_comments);
        """

    /// The aggregates of every store the seed touched (rating, sub-ratings, 人均, review count: each author's
    /// latest live review), from their reviews, written only where they differ.
    static let recomputeRatings: PostgresQuery = """
        SELECT store_aggregates_recount(ARRAY(SELECT DISTINCT store_id FROM seed_comments UNION SELECT id FROM seed_stores))
        """
}
