import ChidianCore
import OpenAPIKit

/// The pieces the component schemas are made of: ids, texts, numbers, lists, objects, request bodies.
extension APISchemas {
    static func ref(_ name: String) -> JSONSchema { .reference(.component(named: name)) }

    static let id = JSONSchema.string(
        description: "An opaque id (ids from the JSON seed are kept as they are).")
    static let timestamp = JSONSchema.string(format: .dateTime, description: "RFC 3339, UTC.")
    static let nullableString = JSONSchema.string(nullable: true)
    static let imagePath = JSONSchema.string(description: "A path: /v1/images/{id}.", pattern: "^/v1/images/")
    static let count = int(min: 0)
    /// Raw bytes (`format: binary`, which generators read as a file).
    static let binary = JSONSchema.string(format: .other("binary"))

    /// A string; `nullable` adds `null` to its types.
    static func text(
        _ description: String? = nil, min: Int? = nil, max: Int? = nil, pattern: String? = nil, nullable: Bool = false
    ) -> JSONSchema {
        .string(nullable: nullable, description: description, minLength: min, maxLength: max, pattern: pattern)
    }

    /// One of `values`.
    static func oneOf(_ values: [String], default value: String? = nil, description: String? = nil)
        -> JSONSchema
    {
        .string(
            description: description, allowedValues: values.map { AnyCodable($0) },
            defaultValue: value.map { AnyCodable($0) })
    }

    /// An integer within the bounds given.
    static func int(
        min: Int? = nil, max: Int? = nil, nullable: Bool = false, default value: Int? = nil, description: String? = nil
    ) -> JSONSchema {
        .integer(
            nullable: nullable, description: description, maximum: max.map { ($0, exclusive: false) },
            minimum: min.map { ($0, exclusive: false) }, defaultValue: value.map { AnyCodable($0) })
    }

    static func number(
        min: Double? = nil, exclusiveMin: Bool = false, nullable: Bool = false, description: String? = nil
    ) -> JSONSchema {
        .number(nullable: nullable, description: description, minimum: min.map { ($0, exclusive: exclusiveMin) })
    }

    /// A number within inclusive bounds.
    static func number(between min: Double, and max: Double, nullable: Bool = false, description: String? = nil)
        -> JSONSchema
    {
        .number(
            nullable: nullable, description: description, maximum: (max, exclusive: false),
            minimum: (min, exclusive: false))
    }

    /// "HH:MM" from 00:00 to 23:59.
    static let clockTime = text(
        "A time \"HH:MM\" from 00:00 to 23:59.", min: 5, max: 5, pattern: "^([01][0-9]|2[0-3]):[0-5][0-9]$")

    /// `{lat, lng}` in WGS-84 degrees.
    static func location(nullable: Bool, description: String) -> JSONSchema {
        object(
            [
                ("lat", number(between: -90, and: 90, description: "Latitude in degrees.")),
                ("lng", number(between: -180, and: 180, description: "Longitude in degrees.")),
            ], nullable: nullable, description: description)
    }

    /// A weekly schedule: `[{day, open, close}]`.
    static func hours(nullable: Bool, description: String) -> JSONSchema {
        list(
            object([
                ("day", int(min: 1, max: 7, description: "1 = Monday … 7 = Sunday.")), ("open", clockTime),
                ("close", clockTime),
            ]), max: WeeklyHours.maxRanges, nullable: nullable, description: description)
    }

    /// A time of the store's week.
    static func moment(_ description: String) -> JSONSchema {
        object(
            [("day", int(min: 1, max: 7, description: "1 = Monday … 7 = Sunday.")), ("time", clockTime)],
            nullable: true, description: description)
    }

    static let hoursRules = """
        Several ranges a day; a range whose `close` is not after its `open` ends the next day (17:00–02:00; \
        equal times are 24 hours; Sunday's runs on into Monday). Ranges starting the same day may not overlap. \
        At most \(WeeklyHours.maxRanges) ranges.
        """

    static func list(
        _ items: JSONSchema, min: Int? = nil, max: Int? = nil, unique: Bool? = nil, nullable: Bool = false,
        description: String? = nil
    ) -> JSONSchema {
        .array(
            nullable: nullable, description: description, minItems: min, maxItems: max, uniqueItems: unique,
            items: items)
    }

    static func boolean(_ description: String? = nil) -> JSONSchema { .boolean(description: description) }

    /// A closed object: every listed property is required unless named in `optional`.
    static func object(
        _ properties: [(String, JSONSchema)], optional: Set<String> = [], nullable: Bool = false,
        description: String? = nil
    ) -> JSONSchema {
        .object(
            nullable: nullable, description: description,
            properties: ordered(properties) { optional.contains($0) ? $1.optionalSchemaObject() : $1 },
            additionalProperties: .a(false))
    }

    /// A request object: open to unknown fields (they are ignored), nothing required unless listed.
    static func request(
        _ properties: [(String, JSONSchema)], required: [String] = [], nullable: Bool = false,
        description: String? = nil
    ) -> JSONSchema {
        .object(
            nullable: nullable, description: description,
            properties: ordered(properties) { required.contains($0) ? $1 : $1.optionalSchemaObject() })
    }

    private static func ordered(
        _ properties: [(String, JSONSchema)], _ transform: (String, JSONSchema) -> JSONSchema
    ) -> OrderedDictionary<String, JSONSchema> {
        var result = OrderedDictionary<String, JSONSchema>()
        for (name, schema) in properties { result[name] = transform(name, schema) }
        return result
    }

    /// 口味 / 环境 / 服务 as the API answers them.
    static func scores(nullable: Bool, description: String) -> JSONSchema {
        let score = int(min: 1, max: 5, nullable: true)
        return object(
            [("taste", score), ("environment", score), ("service", score)], nullable: nullable,
            description: description)
    }

    /// Reviews only (a notice sending a value is `invalid_scores`); an object without any score is none.
    static let scoresRequest = object(
        [
            ("taste", int(min: 1, max: 5, nullable: true)), ("environment", int(min: 1, max: 5, nullable: true)),
            ("service", int(min: 1, max: 5, nullable: true)),
        ], optional: ["taste", "environment", "service"], nullable: true,
        description: "Each an integer 1–5 or null; other keys are `invalid_scores`. Reviews only.")
    static let priceRequest = int(
        min: 1, max: 100_000, nullable: true, description: "人均: an integer 1–100,000 (`invalid_price`). Reviews only.")

    static func page(of item: String) -> JSONSchema {
        object(
            [
                ("items", list(ref(item))),
                ("nextCursor", text("Pass as `cursor` for the next page; null on the last page.", nullable: true)),
            ],
            description:
                "A page of \(item)s, in keyset order: pages never repeat or skip an item while the data is unchanged.")
    }
}
