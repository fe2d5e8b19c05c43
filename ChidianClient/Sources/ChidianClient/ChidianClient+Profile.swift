import Foundation
import OpenAPIRuntime

/// 个人中心: a user's page, the account's name and password, forgetting the feed's clicks, reporting a comment.
extension ChidianClient {
    /// A user's public page.
    public func user(_ id: String) async throws -> User {
        let output = try await api.getUser(path: .init(id: id))
        guard case .ok(let ok) = output else { throw await ChidianError.from(output) }
        return try mirror(ok.body.json)
    }

    /// A user's reviews and notices, newest first.
    public func comments(ofUser id: String, pageSize: Int = 20) -> Paginated<Comment> {
        Paginated { cursor in
            let output = try await self.api.listUserComments(
                path: .init(id: id), query: .init(limit: pageSize, cursor: cursor))
            guard case .ok(let ok) = output else { throw await ChidianError.from(output) }
            let page = try ok.body.json
            return (try mirror(page.items), page.nextCursor)
        }
    }

    /// Renames the signed-in user (the registration rules apply).
    public func rename(to name: String) async throws -> User {
        let output = try await api.renameMe(body: .json(.init(name: name)))
        guard case .ok(let ok) = output else { throw await ChidianError.from(output) }
        return try mirror(ok.body.json)
    }

    /// Changes the password; the user's other sessions are signed out, this one stays.
    public func changePassword(from current: String, to new: String) async throws {
        let output = try await api.changePassword(body: .json(.init(currentPassword: current, newPassword: new)))
        guard case .noContent = output else { throw await ChidianError.from(output) }
    }

    /// Forgets the viewer's clicks: the featured feed starts over.
    public func resetInterests() async throws {
        let output = try await api.resetInterests()
        guard case .noContent = output else { throw await ChidianError.from(output) }
    }

    /// Why a comment is reported.
    public enum ReportReason: String, Codable, Sendable, CaseIterable {
        case spam, offensive, offTopic = "off_topic", fake, other
    }

    /// Reports a comment to the admins.
    public func report(comment id: String, reason: ReportReason, note: String? = nil) async throws {
        guard let reason = Components.Schemas.ReportRequest.ReasonPayload(rawValue: reason.rawValue) else { return }
        let output = try await api.reportComment(path: .init(id: id), body: .json(.init(note: note, reason: reason)))
        guard case .created = output else { throw await ChidianError.from(output) }
    }

    /// 导出我的数据: everything the service holds about the signed-in user, the ZIP archive of `GET /v1/me/export`
    /// (`data.json` and `images/…`), read up to `limit` bytes.
    public func exportMyData(upTo limit: Int = 1 << 31) async throws -> Data {
        let output = try await api.exportMyData()
        guard case .ok(let ok) = output else { throw await ChidianError.from(output) }
        return try await Data(collecting: ok.body.applicationZip, upTo: limit)
    }

    /// 注销账号: deletes the signed-in account and everything that names it (its reviews too); the session ends.
    public func deleteAccount(password: String) async throws {
        let output = try await api.deleteMe(body: .json(.init(password: password)))
        guard case .noContent = output else { throw await ChidianError.from(output) }
        await session.signOut()
    }

    /// Makes an uploaded image (`uploadImage`) the signed-in user's avatar.
    public func setAvatar(imageId: String) async throws -> User {
        let output = try await api.setAvatar(body: .json(.init(imageId: imageId)))
        guard case .ok(let ok) = output else { throw await ChidianError.from(output) }
        return try mirror(ok.body.json)
    }
}
