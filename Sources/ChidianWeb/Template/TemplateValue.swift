import ChidianCore

/// What a template reads: a value of a known kind, so rendering is a `switch`, never a cast or reflection.
/// An absent name (or a nil optional) is no value at all: lookups walk on down the context stack, as in mustache.
enum TemplateValue: Sendable {
    /// Text, HTML-escaped by `{{name}}` and written as it is by `{{{name}}}`.
    case text(String)
    /// UTF-8 already rendered (a page's body inside the layout).
    case bytes([UInt8])
    case int(Int)
    case bool(Bool)
    case list([TemplateValue])
    case object(any TemplateObject)
}

/// A value with named fields: a page model answers a `switch` on the name, a controller's model a dictionary.
protocol TemplateObject: TemplateRepresentable, Sendable {
    func field(_ name: String) -> TemplateValue?
}

extension TemplateObject {
    var templateValue: TemplateValue? { .object(self) }
}

/// Anything a controller puts in a page model; converted once, when the model is built.
protocol TemplateRepresentable {
    var templateValue: TemplateValue? { get }
}

/// A page model built as a dictionary literal; nil values are left out, as absent names.
struct TemplateFields: TemplateObject, ExpressibleByDictionaryLiteral {
    private var fields: [String: TemplateValue]

    init(_ fields: [String: TemplateValue] = [:]) { self.fields = fields }

    init(dictionaryLiteral elements: (String, (any TemplateRepresentable)?)...) {
        fields = Dictionary(minimumCapacity: elements.count)
        for (name, value) in elements { fields[name] = value?.templateValue }
    }

    func field(_ name: String) -> TemplateValue? { fields[name] }

    /// A field to set (nil removes it).
    subscript(name: String) -> (any TemplateRepresentable)? {
        get { fields[name] }
        set { fields[name] = newValue?.templateValue }
    }
}

extension TemplateValue: TemplateRepresentable {
    var templateValue: TemplateValue? { self }
}

extension String: TemplateRepresentable {
    var templateValue: TemplateValue? { .text(self) }
}

extension Int: TemplateRepresentable {
    var templateValue: TemplateValue? { .int(self) }
}

extension Bool: TemplateRepresentable {
    var templateValue: TemplateValue? { .bool(self) }
}

// Closures, not key paths: a key path through a generic element is instantiated at run time on every call.
extension Array: TemplateRepresentable where Element: TemplateRepresentable {
    var templateValue: TemplateValue? { .list(compactMap { $0.templateValue }) }
}

extension Dictionary: TemplateRepresentable where Key == String, Value: TemplateRepresentable {
    var templateValue: TemplateValue? { .object(TemplateFields(compactMapValues { $0.templateValue })) }
}

extension Optional: TemplateRepresentable where Wrapped: TemplateRepresentable {
    var templateValue: TemplateValue? { flatMap { $0.templateValue } }
}
