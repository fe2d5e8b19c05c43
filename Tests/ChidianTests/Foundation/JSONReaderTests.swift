import Foundation
import Testing

@testable import ChidianCore

/// `JSONReader` reads back exactly what `JSONWriter` wrote: a cached store's view comes from its JSON.
@Suite struct JSONReaderTests {
    struct Sample: JSONWritable {
        var text: String
        var number: Double
        var count: Int
        var when: Date

        func write(to json: inout JSONWriter) {
            json.object { json in
                json.key("text"); json.string(text)
                json.key("skipped")
                json.array([1, 2]) { json, n in
                    json.object { json in
                        json.key("n"); json.int(n)
                    }
                }
                json.key("number"); json.double(number)
                json.key("count"); json.int(count)
                json.key("when"); json.date(when)
                json.key("none"); json.null()
            }
        }
    }

    static func read(_ bytes: [UInt8]) throws -> Sample {
        var reader = JSONReader(bytes)
        var sample = Sample(text: "", number: .nan, count: 0, when: .distantPast)
        try reader.object { reader, key in
            switch key {
            case "text": sample.text = try reader.string()
            case "number": sample.number = try reader.double()
            case "count": sample.count = try reader.int()
            case "when": sample.when = try reader.date()
            default: try reader.skip()
            }
        }
        #expect(reader.atEnd)
        return sample
    }

    @Test(arguments: [
        0.0, 1_700_000_000, 951_782_400, 951_782_399, -1, -86_401, -62_135_596_800, 253_402_300_799, 4_102_444_800,
    ])
    func everyValueReadsBackAsWritten(seconds: Double) throws {
        // setup
        var generator = SystemRandomNumberGenerator()
        let numbers =
            [0.1, -2.5e-300, 1e15, 4.333333333333333, Double.ulpOfOne]
            + (0..<50).map { _ in Double(bitPattern: generator.next() >> 2) }
        for number in numbers {
            let sample = Sample(
                text: JSONWriterTests.awkward, number: number, count: Int.min + 1,
                when: Date(timeIntervalSince1970: seconds))
            // MUT
            let read = try Self.read(try JSONWriter.bytes(of: sample))
            // validate
            #expect(read.text == sample.text)
            #expect(read.number.bitPattern == number.bitPattern)
            #expect(read.count == sample.count)
            #expect(read.when == sample.when)
        }
    }

    @Test func escapesOtherWritersUseReadToo() throws {
        // MUT
        let read = try Self.read(
            Array(#"{"text":"\u00e9\ud83d\ude00\/\b","number":1,"count":2,"when":"2000-02-29T00:00:00Z"}"#.utf8))
        // validate
        #expect(read.text == "é😀/\u{08}")
        #expect(read.when == Date(timeIntervalSince1970: 951_782_400))
    }

    @Test(arguments: [#"{"text":"x"#, #"{"text":1}"#, #"{"number":"1"}"#, #"{"when":"2000-02-29"}"#, #"{"text":"\q"}"#])
    func malformedInputThrows(text: String) {
        #expect(throws: JSONReader.Malformed.self) { try Self.read(Array(text.utf8)) }
    }
}
