/// What a web page request carries besides the viewer: its language, the browser's CSRF token, and whether the
/// client reached us over TLS (then cookies are `Secure`). Here, not in the web target, because
/// `AppRequestContext` holds it; the web's session middleware sets it.
package struct WebState: Sendable {
    package var language: Language
    package var csrfToken: String
    package var secure: Bool

    /// The cookie holding a browser's session token (the notification stream reads it too).
    package static let sessionCookie = "chidian_session"

    package init(language: Language, csrfToken: String, secure: Bool) {
        self.language = language
        self.csrfToken = csrfToken
        self.secure = secure
    }
}
