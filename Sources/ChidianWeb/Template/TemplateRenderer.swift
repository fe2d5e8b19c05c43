import ChidianCore

/// Templates by name (partials find each other here), rendered into one byte buffer.
struct TemplateLibrary: Sendable {
    private(set) var templates: [String: Template] = [:]

    mutating func register(_ source: String, named name: String) throws {
        templates[name] = try Template(source)
    }

    /// `name` rendered with `root` as the bottom of the context stack; an unknown template renders nothing.
    func render(_ name: String, _ root: TemplateValue) -> [UInt8] {
        render(name, stack: [root], capacity: 16 * 1024)
    }

    /// `name` rendered with `stack` as the context stack (its last value on top).
    func render(_ name: String, stack: [TemplateValue], capacity: Int) -> [UInt8] {
        guard let template = templates[name] else { return [] }
        var renderer = TemplateRenderer(library: self, stack: stack)
        renderer.output.reserveCapacity(capacity)
        renderer.render(template.nodes)
        return renderer.output
    }
}

/// Mustache's semantics over `TemplateValue`: a name is looked up from the top of the context stack down (the
/// first value that has it answers; the rest of a dotted name is read from that value only); a section renders
/// once per list item, once for `true`, once with any other value pushed, and not at all for a missing name,
/// `false` or an empty list (an inverted section: exactly then).
struct TemplateRenderer {
    let library: TemplateLibrary
    var stack: [TemplateValue]
    var output: [UInt8] = []
    /// The indentation of the standalone partials being rendered, written before each line they start.
    var indentation: [UInt8] = []

    mutating func render(_ nodes: [Template.Node]) {
        for node in nodes {
            switch node {
            case .text(let bytes):
                write(bytes)
            case .variable(let name, let escaped):
                guard let value = lookup(name) else { continue }
                switch value {
                case .text(let text): write(text, escaped: escaped)
                case .bytes(let bytes):
                    escaped ? write(String(decoding: bytes, as: UTF8.self), escaped: true) : write(bytes)
                case .int(let number): write(String(number), escaped: false)
                case .bool(let flag): write(flag ? "true" : "false", escaped: false)
                case .list, .object: continue
                }
            case .section(let name, let children, let inverted):
                let value = lookup(name)
                if inverted {
                    switch value {
                    case nil: render(children)
                    case .bool(let flag): if !flag { render(children) }
                    case .list(let items): if items.isEmpty { render(children) }
                    default: continue
                    }
                    continue
                }
                switch value {
                case nil: continue
                case .bool(let flag): if flag { render(children) }
                case .list(let items):
                    for item in items {
                        stack.append(item)
                        render(children)
                        stack.removeLast()
                    }
                case .some(let value):
                    stack.append(value)
                    render(children)
                    stack.removeLast()
                }
            case .partial(let name, let partialIndentation):
                guard let template = library.templates[name] else { continue }
                let outer = indentation
                if let partialIndentation { indentation += partialIndentation }
                render(template.nodes)
                indentation = outer
            }
        }
    }

    func lookup(_ name: Template.Name) -> TemplateValue? {
        guard let first = name.parts.first else { return stack.last }
        var found: TemplateValue?
        for value in stack.reversed() {
            if case .object(let object) = value, let child = object.field(first) {
                found = child
                break
            }
        }
        for part in name.parts.dropFirst() {
            guard case .object(let object) = found else { return nil }
            found = object.field(part)
        }
        return found
    }

    /// Before anything a standalone partial writes at the start of a line: its indentation.
    mutating func indentIfNeeded() {
        if !indentation.isEmpty, output.last == UInt8(ascii: "\n") { output.append(contentsOf: indentation) }
    }

    mutating func write(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        indentIfNeeded()
        output.append(contentsOf: bytes)
    }

    mutating func write(_ text: String, escaped: Bool) {
        guard !text.isEmpty else { return }
        indentIfNeeded()
        var text = text
        text.withUTF8 { utf8 in
            guard escaped else { return output.append(contentsOf: utf8) }
            HTMLEscaping.append(utf8, to: &output)
        }
    }
}

/// Mustache's HTML escaping: `<`, `>`, `&`, `"` and `'` (as `&#39;`), byte by byte (swift-mustache compared
/// whole Characters, which let a quote followed by a combining mark through unescaped).
enum HTMLEscaping {
    static func append(_ utf8: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        var start = 0
        for index in utf8.indices {
            let replacement: StaticString
            switch utf8[index] {
            case UInt8(ascii: "<"): replacement = "&lt;"
            case UInt8(ascii: ">"): replacement = "&gt;"
            case UInt8(ascii: "&"): replacement = "&amp;"
            case UInt8(ascii: "\""): replacement = "&quot;"
            case UInt8(ascii: "'"): replacement = "&#39;"
            default: continue
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
            output.append(
                contentsOf: UnsafeBufferPointer(start: replacement.utf8Start, count: replacement.utf8CodeUnitCount))
            start = index + 1
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
    }

    static func escape(_ text: String) -> String {
        var output: [UInt8] = []
        var text = text
        text.withUTF8 { append($0, to: &output) }
        return String(decoding: output, as: UTF8.self)
    }
}
