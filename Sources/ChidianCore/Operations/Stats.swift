import Foundation
import PostgresNIO

/// `chidian stats`: how much there is, and the leading stores by rating score and by ad spend.
public struct Stats: Sendable, Equatable, CustomStringConvertible {
    public struct Counts: Sendable, Equatable {
        public var users = 0, managers = 0, admins = 0, categories = 0, stores = 0, archivedStores = 0
        public var reviews = 0, notices = 0, hiddenComments = 0, favorites = 0, images = 0, promotions = 0
        public var adSpend = 0
    }

    public struct Ranked: Sendable, Equatable {
        public var id: String
        public var name: String
        public var value: String
    }

    public var counts = Counts()
    public var topByRating: [Ranked] = []
    public var topBySpend: [Ranked] = []

    public static func load(_ database: Database, top: Int = 5) async throws -> Stats {
        var stats = Stats()
        let row = try await database.query(
            """
            SELECT (SELECT count(*) FROM users)::int, (SELECT count(*) FROM users WHERE role = 'manager')::int,
                   (SELECT count(*) FROM users WHERE role = 'admin')::int, (SELECT count(*) FROM categories)::int,
                   (SELECT count(*) FROM stores WHERE archived_at IS NULL)::int,
                   (SELECT count(*) FROM stores WHERE archived_at IS NOT NULL)::int,
                   (SELECT count(*) FROM comments WHERE kind = 'review' AND hidden_at IS NULL)::int,
                   (SELECT count(*) FROM comments WHERE kind = 'notice' AND hidden_at IS NULL)::int,
                   (SELECT count(*) FROM comments WHERE hidden_at IS NOT NULL)::int,
                   (SELECT count(*) FROM favorites)::int, (SELECT count(*) FROM images)::int,
                   (SELECT count(*) FROM promotions)::int,
                   (SELECT coalesce(sum(ad_spend), 0) FROM stores WHERE archived_at IS NULL)::int8
            """)[0]
        let values = try row.decodeAll((Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int).self)
        stats.counts = Counts(
            users: values.0, managers: values.1, admins: values.2, categories: values.3, stores: values.4,
            archivedStores: values.5, reviews: values.6, notices: values.7, hiddenComments: values.8,
            favorites: values.9,
            images: values.10, promotions: values.11, adSpend: values.12)
        stats.topByRating = try await database.query(
            """
            SELECT id, name, rating_score::float8, rating_count FROM stores WHERE archived_at IS NULL
            ORDER BY rating_score DESC, id DESC LIMIT \(top)
            """
        ).map { row in
            let (id, name, score, count) = try row.decodeAll((String, String, Double, Int).self)
            return Ranked(id: id, name: name, value: String(format: "%.2f (%d reviews)", score, count))
        }
        stats.topBySpend = try await database.query(
            """
            SELECT id, name, ad_spend::int8 FROM stores WHERE archived_at IS NULL AND ad_spend > 0
            ORDER BY ad_spend DESC, created_at, id LIMIT \(top)
            """
        ).map { row in
            let (id, name, spend) = try row.decodeAll((String, String, Int).self)
            return Ranked(id: id, name: name, value: String(spend))
        }
        return stats
    }

    public var description: String {
        let c = counts
        var lines = [
            "users \(c.users) (managers \(c.managers), admins \(c.admins))",
            "categories \(c.categories)",
            "stores \(c.stores) (archived \(c.archivedStores))",
            "reviews \(c.reviews), notices \(c.notices), hidden \(c.hiddenComments)",
            "favorites \(c.favorites), images \(c.images)",
            "promotion purchases \(c.promotions), ad spend \(c.adSpend)",
            "top stores by rating score:",
        ]
        lines += topByRating.enumerated().map {
            "  \($0.offset + 1). \($0.element.name) [\($0.element.id)] \($0.element.value)"
        }
        lines.append("top stores by ad spend:")
        lines += topBySpend.enumerated().map {
            "  \($0.offset + 1). \($0.element.name) [\($0.element.id)] \($0.element.value)"
        }
        return lines.joined(separator: "\n")
    }
}
