/// Splits a migration file into statements, because PostgreSQL's extended protocol runs one at a time.
/// Understands '…' strings, "…" identifiers, $tag$…$tag$ bodies, -- and /* */ comments.
public enum SQLScript {
    public static func statements(_ script: String) -> [String] {
        let chars = Array(script.unicodeScalars)
        var statements: [String] = []
        var current = String.UnicodeScalarView()
        var index = 0
        func peek(_ offset: Int) -> Unicode.Scalar? { index + offset < chars.count ? chars[index + offset] : nil }
        func flush() {
            let text = String(current).trimmingWhitespace()
            if !text.isEmpty { statements.append(text) }
            current = String.UnicodeScalarView()
        }
        while index < chars.count {
            let c = chars[index]
            if c == "-" && peek(1) == "-" {
                while index < chars.count && chars[index] != "\n" { index += 1 }
                continue
            }
            if c == "/" && peek(1) == "*" {
                index += 2
                while index < chars.count && !(chars[index] == "*" && peek(1) == "/") { index += 1 }
                index += 2
                continue
            }
            if c == "'" || c == "\"" {
                current.append(c)
                index += 1
                while index < chars.count {
                    current.append(chars[index])
                    if chars[index] == c {
                        if peek(1) == c { index += 1; current.append(chars[index]) } else { break }
                    }
                    index += 1
                }
                index += 1
                continue
            }
            if c == "$", let tag = dollarTag(chars, at: index) {
                current.append(contentsOf: tag)
                index += tag.count
                while index < chars.count {
                    if chars[index] == "$", Array(chars[index..<min(chars.count, index + tag.count)]) == tag {
                        current.append(contentsOf: tag)
                        index += tag.count
                        break
                    }
                    current.append(chars[index])
                    index += 1
                }
                continue
            }
            if c == ";" {
                flush()
                index += 1
                continue
            }
            current.append(c)
            index += 1
        }
        flush()
        return statements
    }

    /// `$$` or `$name$` starting at `start`, or nil when the `$` is a parameter like `$1`.
    private static func dollarTag(_ chars: [Unicode.Scalar], at start: Int) -> [Unicode.Scalar]? {
        var end = start + 1
        while end < chars.count,
            chars[end] == "_" || chars[end].properties.isAlphabetic
                || (end > start + 1 && ("0"..."9").contains(chars[end]))
        {
            end += 1
        }
        guard end < chars.count, chars[end] == "$" else { return nil }
        return Array(chars[start...end])
    }
}

extension String {
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
