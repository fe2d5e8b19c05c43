import ChidianCore

/// A mustache template parsed once into a tree. The subset the web client's templates use: `{{name}}` (escaped),
/// `{{{name}}}` and `{{&name}}` (as is), `{{#name}}` / `{{^name}}` sections, dotted names, `{{.}}`, `{{! }}` and
/// `{{> partial}}`, with mustache's rules for standalone lines and indented partials, so the output is the
/// same, byte for byte, as swift-mustache's (which the pages were rendered with before).
struct Template: Sendable {
    indirect enum Node: Sendable {
        case text([UInt8])
        case variable(Name, escaped: Bool)
        case section(Name, [Node], inverted: Bool)
        /// `indentation` is set for a partial alone on its line: each of its lines is indented as the tag was.
        case partial(String, indentation: [UInt8]?)
    }

    /// A name split at its dots; `{{.}}` is the empty name, the current value.
    struct Name: Sendable, Equatable {
        let parts: [String]

        init(_ text: String) {
            parts = text == "." ? [] : text.split(separator: ".").map(String.init)
        }
    }

    struct ParseError: Error, CustomStringConvertible {
        let offset: Int
        let reason: String
        var description: String { "\(reason) at byte \(offset)" }
    }

    let nodes: [Node]

    init(_ source: String) throws {
        var parser = Parser(bytes: Array(source.utf8))
        nodes = try parser.parse(section: nil, newLine: true)
    }
}

extension Template {
    /// A port of swift-mustache's parser (`MustacheTemplate.parse`), byte-wise: the leading spaces of a line are
    /// held back until it is known whether the line holds only a section, comment or partial tag (a standalone
    /// line, left out of the output with its line break).
    struct Parser {
        let bytes: [UInt8]
        var index = 0

        static let space = UInt8(ascii: " ")
        static let tab = UInt8(ascii: "\t")
        static let newline = UInt8(ascii: "\n")
        static let open = UInt8(ascii: "{")
        static let close = UInt8(ascii: "}")

        var atEnd: Bool { index >= bytes.count }

        mutating func parse(section: String?, newLine startsOnNewLine: Bool) throws -> [Node] {
            var nodes: [Node] = []
            var newLine = startsOnNewLine
            var whitespace: [UInt8] = []
            while !atEnd {
                if newLine {
                    let start = index
                    while !atEnd, bytes[index] == Self.space || bytes[index] == Self.tab { index += 1 }
                    whitespace = Array(bytes[start..<index])
                }
                let (text, stop) = readText()
                if stop == .newline {
                    nodes.append(.text(whitespace + text + [Self.newline]))
                    newLine = true
                    index += 1
                    continue
                }
                if !text.isEmpty {
                    nodes.append(.text(whitespace + text))
                    whitespace = []
                    newLine = false
                }
                if stop == .end { break }
                var setNewLine = false
                switch bytes[index] {
                case UInt8(ascii: "#"), UInt8(ascii: "^"):
                    let inverted = bytes[index] == UInt8(ascii: "^")
                    index += 1
                    let name = try readName()
                    if newLine && lineFinished() {
                        setNewLine = true
                    } else if !whitespace.isEmpty {
                        nodes.append(.text(whitespace))
                        whitespace = []
                    }
                    let children = try parse(section: name, newLine: setNewLine)
                    nodes.append(.section(Name(name), children, inverted: inverted))
                case UInt8(ascii: "/"):
                    index += 1
                    let nameStart = index
                    let name = try readName()
                    guard name == section else {
                        throw ParseError(offset: nameStart, reason: "unexpected {{/\(name)}}")
                    }
                    if !(newLine && lineFinished()), !whitespace.isEmpty { nodes.append(.text(whitespace)) }
                    return nodes
                case UInt8(ascii: "!"):
                    while !atEnd, !(bytes[index] == Self.close && next == Self.close) { index += 1 }
                    guard !atEnd else { throw ParseError(offset: index, reason: "unfinished comment") }
                    index += 2
                    setNewLine = newLine && lineFinished()
                case UInt8(ascii: "{"), UInt8(ascii: "&"):
                    let triple = bytes[index] == Self.open
                    if !whitespace.isEmpty { nodes.append(.text(whitespace)) }
                    whitespace = []
                    index += 1
                    let name = try readName()
                    if triple {
                        guard !atEnd, bytes[index] == Self.close else {
                            throw ParseError(offset: index, reason: "expected }}}")
                        }
                        index += 1
                    }
                    nodes.append(.variable(Name(name), escaped: false))
                case UInt8(ascii: ">"):
                    index += 1
                    let name = try readName(partial: true)
                    if !whitespace.isEmpty { nodes.append(.text(whitespace)) }
                    if newLine && lineFinished() {
                        setNewLine = true
                        nodes.append(.partial(name, indentation: whitespace))
                    } else {
                        nodes.append(.partial(name, indentation: nil))
                    }
                    whitespace = []
                case UInt8(ascii: "="), UInt8(ascii: "<"), UInt8(ascii: "$"), UInt8(ascii: "%"):
                    throw ParseError(offset: index, reason: "unsupported tag {{\(UnicodeScalar(bytes[index]))")
                default:
                    if !whitespace.isEmpty { nodes.append(.text(whitespace)) }
                    whitespace = []
                    nodes.append(.variable(Name(try readName()), escaped: true))
                }
                newLine = setNewLine
            }
            if let section { throw ParseError(offset: index, reason: "{{#\(section)}} is not closed") }
            return nodes
        }

        enum Stop { case newline, tag, end }

        var next: UInt8? { index + 1 < bytes.count ? bytes[index + 1] : nil }

        /// Text up to a line break (not consumed) or past a tag's `{{`.
        mutating func readText() -> ([UInt8], Stop) {
            let start = index
            while !atEnd {
                if bytes[index] == Self.newline { return (Array(bytes[start..<index]), .newline) }
                if bytes[index] == Self.open, next == Self.open {
                    let text = Array(bytes[start..<index])
                    index += 2
                    return (text, atEnd ? .end : .tag)
                }
                index += 1
            }
            return (Array(bytes[start..<index]), .end)
        }

        /// The rest of the line is blank: consume it with its line break (at the end, there is none to consume).
        mutating func lineFinished() -> Bool {
            var probe = index
            while probe < bytes.count, bytes[probe] == Self.space || bytes[probe] == Self.tab { probe += 1 }
            if probe == bytes.count { return index == bytes.count }
            guard bytes[probe] == Self.newline else { return false }
            index = probe + 1
            return true
        }

        /// A tag's name, up to its `}}`.
        mutating func readName(partial: Bool = false) throws -> String {
            skipWhitespace()
            let start = index
            while !atEnd, Self.isNameByte(bytes[index]) || (partial && bytes[index] == UInt8(ascii: "/")) { index += 1 }
            let name = String(decoding: bytes[start..<index], as: UTF8.self)
            skipWhitespace()
            guard !atEnd, bytes[index] == Self.close, next == Self.close, !name.isEmpty else {
                throw ParseError(offset: start, reason: "unfinished tag")
            }
            index += 2
            return name
        }

        mutating func skipWhitespace() {
            while !atEnd, [Self.space, Self.tab, Self.newline, UInt8(ascii: "\r")].contains(bytes[index]) { index += 1 }
        }

        static func isNameByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"),
                UInt8(ascii: "?"), UInt8(ascii: "*"):
                true
            default: false
            }
        }
    }
}
