import Foundation
import PostgresNIO

/// What a viewer's history says of stores, read by one small statement, or with the cache kept per viewer (issue
/// #45) under the tags of everything it was read from: the viewer's opens (`vo:`), their favourites (`fv:`), their
/// reviews (`t:`) and the covisits of each store that seeded it (`v:`); migration 042.
extension StoreCandidates {
    package struct Evidence: Sendable, Equatable {
        /// Viewers each store shares with the viewer's recent and favorite stores.
        package var related: [String: Int] = [:]
        package var favorites: Set<String> = []
        /// Reviewed in the last 30 days: never a candidate.
        package var reviewed: Set<String> = []
        /// The stores that seeded `related` (its tags, `relatedScores`).
        package var seeds: [String] = []
        /// Names `related`'s set of stores (`relatedScores` keeps their scores under it).
        package var fingerprint: UInt64 = 0
    }

    /// The statement's answer as kept: each reviewed store with its latest review, so "lately" is judged when asked
    /// (a review only ever leaves it with time; a new one tells `t:`), and the seeds, for their tags.
    struct KeptEvidence: Sendable {
        var related: [String: Int] = [:]
        var favorites: Set<String> = []
        var reviewed: [String: Date] = [:]
        var seeds: [String] = []
        var fingerprint: UInt64 = 0

        func evidence(since: Date) -> Evidence {
            Evidence(
                related: related, favorites: favorites,
                reviewed: Set(reviewed.compactMap { $0.value > since ? $0.key : nil }), seeds: seeds,
                fingerprint: fingerprint)
        }

        /// FNV-1a over the related ids in order, once a fill.
        static func fingerprint(_ ids: [String]) -> UInt64 {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for id in ids {
                for byte in id.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
                hash = (hash ^ 0xff) &* 0x100_0000_01b3
            }
            return hash
        }

        func tags(_ viewer: Viewer) -> [String] {
            [viewer.key.map { "vo:" + $0 }, viewer.userID.map { "fv:" + $0 }, viewer.userID.map { "t:" + $0 }]
                .compactMap { $0 } + seeds.map { "v:" + $0 }
        }

        var cost: Int { 128 + 48 * (related.count + favorites.count + reviewed.count + seeds.count) }
    }

    /// The viewer's evidence (`evidence`'s three parts), or nothing without a viewer key or user.
    package func evidence(for viewer: Viewer, cache: ReadCache?) async throws -> Evidence {
        guard viewer.key != nil || viewer.userID != nil else { return Evidence() }
        let load = { @Sendable () async throws -> KeptEvidence in
            var kept = KeptEvidence()
            for row in try await database.forReads.run(EvidenceStatement(viewer: viewer)) {
                switch row.part {
                case 0: kept.related[row.id] = row.covisits
                case 1: kept.favorites.insert(row.id)
                case 2: kept.reviewed[row.id] = max(kept.reviewed[row.id] ?? .distantPast, row.at ?? .distantPast)
                default: kept.seeds.append(row.id)
                }
            }
            kept.fingerprint = KeptEvidence.fingerprint(kept.related.keys.sorted())
            return kept
        }
        guard let cache else { return try await load().evidence(since: viewer.since) }
        let key = "ev:\(viewer.key ?? "")|\(viewer.userID ?? "")"
        return try await cache.entry(key, tags: { $0.tags(viewer) }, cost: { $0.cost }, load: load).value
            .evidence(since: viewer.since)
    }

    /// The scores of the viewer's related stores (missing: unknown or archived), kept as one piece per viewer and
    /// related set (its fingerprint in the key: evidence read before a change cannot leave its set under the new
    /// one's name) under the evidence's tags and each store's `s:`. A pool looked each one up by itself, a hundred
    /// looks of several cache misses each (an eighth of a signed-in 猜你喜欢). nil when the cache does not serve.
    func relatedScores(_ evidence: Evidence, for viewer: Viewer, places: PlaceCells) async throws
        -> [String: StoreScore]?
    {
        guard !evidence.related.isEmpty else { return [:] }
        let key = "er:\(viewer.key ?? "")|\(viewer.userID ?? "")|\(evidence.fingerprint)"
        do {
            // Tags and ids only on a fill: a hit is one look.
            return try await places.cache.entry(
                key,
                tags: { _ in
                    KeptEvidence(seeds: evidence.seeds).tags(viewer) + evidence.related.keys.map { "s:" + $0 }
                },
                cost: { 64 + 120 * $0.count },
                load: {
                    guard let read = try await places.scores(Array(evidence.related.keys)) else { throw NotServing() }
                    return read
                }
            ).value
        } catch is NotServing {
            return nil
        }
    }

    private struct NotServing: Error {}

    /// `evidence`'s parts as rows: 0 related (with its co-visits), 1 favorite, 2 reviewed lately (with when), 3 seed.
    struct EvidenceStatement: PostgresPreparedStatement {
        static let name = "viewer_evidence"
        static let sql =
            StoreCandidates.evidence + "\n"
                + """
                SELECT 0, r.id, r.covisits, NULL::timestamptz FROM related r
                UNION ALL SELECT 1, f.store_id, 0, NULL FROM favorite f
                UNION ALL SELECT 2, v.store_id, 0, v.created_at FROM reviewed v
                UNION ALL SELECT 3, s.store_id, 0, NULL FROM seeds s
                """
        static let bindingDataTypes: [PostgresDataType] = [.text, .text, .timestamptz]

        var viewer: Viewer

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 3)
            bindings.append(viewer.key)
            bindings.append(viewer.userID)
            bindings.append(viewer.since)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> (part: Int, id: String, covisits: Int, at: Date?) {
            let (part, id, covisits, at) = try row.decodeAll((Int32, String, Int32, Date?).self)
            return (Int(part), id, Int(covisits), at)
        }
    }
}
