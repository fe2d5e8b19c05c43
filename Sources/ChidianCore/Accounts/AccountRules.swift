import Foundation

/// The account rules of the contract, free of any database.
public enum AccountRules {
    public static let maxNameLength = 32
    public static let minPasswordLength = 8

    /// The trimmed name, or 400 `name_required` / `invalid_name`.
    public static func validName(_ raw: String?) throws -> String {
        let name = (raw ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { throw AccountError.nameRequired }
        guard TextLimit.fits(name, maxNameLength) else {
            throw AccountError.invalidName("The name must be at most \(maxNameLength) characters.")
        }
        guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw AccountError.invalidName("The name must not contain control characters.")
        }
        return name
    }

    /// bcrypt reads at most 72 bytes, up to the first NUL; anything past either would be silently ignored.
    public static let maxPasswordBytes = 72

    /// 400 `weak_password` under the minimum length, and `checkPasswordBytes`.
    public static func checkPassword(_ password: String?) throws -> String {
        guard let password, password.count >= minPasswordLength else {
            throw AccountError.weakPassword(min: minPasswordLength)
        }
        return try checkPasswordBytes(password)
    }

    /// A password bcrypt would use exactly as typed: 400 `invalid_password` for a NUL, 400 `password_too_long`
    /// over 72 UTF-8 bytes. Also applied at sign-in and to the seed's plain-text passwords.
    public static func checkPasswordBytes(_ password: String) throws -> String {
        guard !password.utf8.contains(0) else {
            throw Problem.badRequest("invalid_password", "The password must not contain NUL characters.")
        }
        guard password.utf8.count <= maxPasswordBytes else {
            throw Problem.badRequest(
                "password_too_long", "The password must be at most \(maxPasswordBytes) bytes in UTF-8.")
        }
        return password
    }

    /// Roles anyone may register with; admins are made by the CLI only.
    public static func registrableRole(_ raw: String?) throws -> Role {
        switch raw {
        case nil, "user": return .user
        case "manager": return .manager
        default: throw AccountError.invalidRole
        }
    }
}
