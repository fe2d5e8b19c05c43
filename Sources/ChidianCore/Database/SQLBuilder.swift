import PostgresNIO

/// A statement put together from fixed fragments of SQL with every value a bind parameter: `bind` adds the value
/// and answers its placeholder, so a value used in several places (a `near` point) is bound once, and a filter that
/// is absent adds no text at all. Values never enter the text.
package struct SQLBuilder {
    private var bindings = PostgresBindings()
    private var count = 0

    package init() {}

    /// The placeholder (`$n`) of `value`, now bound.
    package mutating func bind<Value: PostgresDynamicTypeEncodable>(_ value: Value) -> String {
        bindings.append(value)
        count += 1
        return "$\(count)"
    }

    /// The placeholder of `value`, now bound; NULL when nil (the SQL casts it to its type).
    package mutating func bind<Value: PostgresDynamicTypeEncodable>(_ value: Value?) -> String {
        bindings.append(value)
        count += 1
        return "$\(count)"
    }

    /// The statement `text`, written with this builder's placeholders.
    package func query(_ text: String) -> PostgresQuery {
        PostgresQuery(unsafeSQL: text, binds: bindings)
    }
}
