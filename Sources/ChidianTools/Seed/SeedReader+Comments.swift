import ChidianCore
import Foundation

/// The comments file: streamed, each comment checked against the users and stores read before it.
extension SeedReader {
    /// Streams comments, validating each; `body` sees only valid ones.
    mutating func readComments(
        progress: ProgressReporter? = nil, phase: String = "comments", _ body: (SeedComment) async throws -> Void
    ) async throws {
        let file = SeedFormat.commentsFile
        guard var scanner = scanner(file) else { return }
        while true {
            let element: JSONValue?
            do {
                element = try scanner.next()
            } catch let error as JSONSyntaxError {
                issues.add(
                    file, nil, nil, nil,
                    "malformed JSON at line \(error.line), column \(error.column): \(error.message)")
                return
            }
            guard let element else { return }
            let index = scanner.index
            if index % 4096 == 0 {
                progress?.update(phase: phase, done: scanner.bytesRead, total: scanner.byteCount, rows: index)
            }
            guard case .object(let object) = element else {
                issues.add(file, index, nil, element.preview, "each element must be a JSON object")
                continue
            }
            if let comment = comment(FieldReader(file: file, index: index, object: object, issues: issues)) {
                try await body(comment)
            }
        }
    }

    /// The reader of an optional nested object `key`; nil when absent or null (a non-object is an issue).
    static func nested(_ field: FieldReader, _ key: String) -> FieldReader? {
        switch field.object[key] {
        case .object(let nested)?:
            return FieldReader(
                file: field.file, index: field.index, object: nested, issues: field.issues,
                prefix: field.prefix + key + ".")
        case nil, .null?:
            return nil
        case let other?:
            field.fail(key, other, "must be an object")
            return nil
        }
    }

    fileprivate mutating func comment(_ field: FieldReader) -> SeedComment? {
        let file = field.file
        let index = field.index
        let id = field.id(seen: &commentIDs)
        let storeID = field.string("store_id")
        let userID = field.string("user_id")
        let body = field.string("context")
        let imageNames = field.strings("commentImageName")
        let kindField = field.string("kind", required: false)
        let hiddenAt = field.date("hiddenAt")
        let hidden = field.bool("hidden") ?? (hiddenAt != nil)
        let createdAt = field.date("createdAt")
        let updatedAt = field.date("updatedAt")
        let version = field.integer("version", required: false)
        var ok = id != nil
        let manager = storeID.flatMap { managers[$0] }
        if let storeID, manager == nil {
            field.fail("store_id", .string(storeID), "is not a store id in store.json or the database"); ok = false
        } else if storeID == nil {
            ok = false
        }
        if let userID, roles[userID] == nil {
            field.fail("user_id", .string(userID), "is not a user id in userInfo.json or the database"); ok = false
        } else if userID == nil {
            ok = false
        }
        // The original's rule: a comment by the store's manager is a notice, anything else a review.
        var kind = (userID != nil && userID == manager) ? "notice" : "review"
        if let kindField {
            if kindField == "review" || kindField == "notice" {
                kind = kindField
            } else {
                field.fail("kind", .string(kindField), "must be review or notice"); ok = false
            }
        }
        var rating: Int? = nil
        if kind == "review" {
            rating = field.integer("rating")
            if let value = rating, !(1...5).contains(value) {
                field.fail("rating", .integer(value), "must be 1–5 for a review"); ok = false
            } else if rating == nil {
                ok = false
            }
        }
        if let body {
            let trimmed = body.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty { field.fail("context", .string(body), "must not be blank"); ok = false }
            if body.count > 5000 { field.fail("context", .string(body), "must be at most 5000 characters"); ok = false }
        } else {
            ok = false
        }
        if imageNames.count > 9 {
            field.fail("commentImageName", .array([]), "has \(imageNames.count) images; at most 9"); ok = false
        }
        let keptImages = images.usable(
            imageNames, file: file, index: index, field: "commentImageName", issues: field.issues)
        if let version, version < 1 {
            field.fail("version", .integer(version), "must be at least 1"); ok = false
        }
        // The API's rules: reviews only, each score 1–5 or null, a price 1–100,000.
        var scores: CommentScores?
        if let raw = field.object["scores"] {
            do {
                scores = try CommentRules.validScores(raw)
                if kind == "notice", scores != nil { throw CommentError.invalidScores }
            } catch {
                field.fail(
                    "scores", raw, "must be null or {taste, environment, service}, each 1–5 or null, on a review")
                ok = false
            }
        }
        var price: Int?
        if let raw = field.object["pricePerPerson"] {
            do {
                price = try CommentRules.validPrice(raw)
                if kind == "notice", price != nil { throw CommentError.invalidPrice }
            } catch {
                field.fail("pricePerPerson", raw, "must be null or an integer 1–100000, on a review")
                ok = false
            }
        }
        // Likes as the API allows them: on reviews, by known users other than the author; others skipped.
        var likers: [String] = []
        var seenLikers = Set<String>()
        for (position, liker) in field.strings("likedUserId").enumerated() where seenLikers.insert(liker).inserted {
            let place = "likedUserId[\(position)]"
            if roles[liker] == nil {
                field.issues.warn(file, index, place, "\"\(liker)\"", "unknown user skipped")
            } else if kind != "review" || liker == userID {
                field.issues.warn(file, index, place, "\"\(liker)\"", "a like of a notice or by its author skipped")
            } else {
                likers.append(liker)
            }
        }
        var reply: SeedFormat.Reply?
        if let replyField = Self.nested(field, "reply") {
            if let text = replyField.string("body") {
                if kind != "review" {
                    replyField.fail("body", .string(text), "a reply answers a review, not a notice"); ok = false
                } else if let valid = try? CommentReplies.validBody(text) {
                    reply = SeedFormat.Reply(
                        body: valid, createdAt: replyField.date("createdAt"), updatedAt: replyField.date("updatedAt"))
                } else {
                    replyField.fail("body", .string(text), "must be 1–2000 characters, not blank"); ok = false
                }
            } else {
                ok = false
            }
        }
        var reports: [SeedFormat.Report] = []
        for report in field.objects("reports") {
            let reportID = report.string("id")
            let reporter = report.string("reporterId")
            let reason = report.string("reason")
            if let reportID, reportID.isEmpty || reportID.count > 64 {
                report.fail("id", .string(reportID), "must be 1–64 characters"); ok = false
            }
            if let reason, !Moderation.reasons.contains(reason) {
                report.fail("reason", .string(reason), "must be one of \(Moderation.reasons.joined(separator: ", "))")
                ok = false
            }
            let note = report.string("note", required: false)
            if let note, (try? Moderation.validNote(note)) == nil {
                report.fail("note", .string(note), "must be at most 500 characters"); ok = false
            }
            guard let reportID, let reporter, let reason else { ok = false; continue }
            if roles[reporter] == nil {
                report.issues.warn(file, index, report.prefix + "reporterId", "\"\(reporter)\"", "unknown user skipped")
                continue
            }
            reports.append(
                SeedFormat.Report(
                    id: reportID, reporterId: reporter, reason: reason, note: note, createdAt: report.date("createdAt"),
                    closedAt: report.date("closedAt")))
        }
        guard ok, let id, let storeID, let userID, let body, let keptImages else { return nil }
        for image in keptImages { images.claim(image, by: userID) }
        return SeedComment(
            id: id, storeID: storeID, userID: userID, kind: kind, rating: rating, body: body, imageNames: keptImages,
            hiddenAt: hidden ? hiddenAt : nil, hidden: hidden, createdAt: createdAt, updatedAt: updatedAt,
            version: version,
            position: index, scores: scores, pricePerPerson: price, likedUserIDs: likers, reply: reply,
            reports: reports)
    }
}
