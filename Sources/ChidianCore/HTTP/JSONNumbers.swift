import Foundation

/// Where a JSON body writes numbers with a fraction or an exponent (`5.0`, `5e0`). Foundation's decoder reads
/// those as integers when they are whole, so `JSONValue` asks this list (through the decoder's `userInfo`)
/// whether the text at its coding path was an integer literal: the contract wants `5.0` refused where it says integer.
struct JSONNumbers: Sendable {
    enum Part: Hashable, Sendable {
        case key(String)
        case index(Int)
    }

    static let userInfoKey = CodingUserInfoKey(rawValue: "chidian.nonIntegerNumbers")!

    package private(set) var paths = Set<[Part]>()

    func isNonInteger(at codingPath: [any CodingKey]) -> Bool {
        paths.contains(codingPath.map { key in key.intValue.map(Part.index) ?? .key(key.stringValue) })
    }

    /// Scans `bytes` once; malformed JSON is left to the decoder (which reports it), this only never crashes.
    package init(scanning bytes: [UInt8]) {
        var path: [Part] = []
        var inObject: [Bool] = []
        var expectKey = false
        var i = 0
        let n = bytes.count
        while i < n {
            let c = bytes[i]
            switch c {
            case UInt8(ascii: "{"):
                inObject.append(true); path.append(.key("")); expectKey = true; i += 1
            case UInt8(ascii: "["):
                inObject.append(false); path.append(.index(0)); expectKey = false; i += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if !inObject.isEmpty { inObject.removeLast(); path.removeLast() }
                expectKey = false; i += 1
            case UInt8(ascii: ","):
                if let object = inObject.last {
                    if object {
                        expectKey = true
                    } else if case .index(let k)? = path.last {
                        path[path.count - 1] = .index(k + 1)
                    }
                }
                i += 1
            case UInt8(ascii: "\""):
                let start = i
                i += 1
                var escaped = false
                while i < n, bytes[i] != UInt8(ascii: "\"") {
                    if bytes[i] == UInt8(ascii: "\\") { escaped = true; i += 1 }
                    i += 1
                }
                i += 1
                if expectKey, !path.isEmpty {
                    let raw = Array(bytes[start..<min(i, n)])
                    let key =
                        escaped
                        ? ((try? JSONDecoder().decode(String.self, from: Data(raw))) ?? "")
                        : String(decoding: raw.dropFirst().dropLast(), as: UTF8.self)
                    path[path.count - 1] = .key(key)
                    expectKey = false
                }
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                var integer = true
                while i < n, let d = Optional(bytes[i]),
                    d == UInt8(ascii: "-") || d == UInt8(ascii: "+") || d == UInt8(ascii: ".") || d == UInt8(ascii: "e")
                        || d == UInt8(ascii: "E") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(d)
                {
                    if d == UInt8(ascii: ".") || d == UInt8(ascii: "e") || d == UInt8(ascii: "E") { integer = false }
                    i += 1
                }
                if !integer { paths.insert(path) }
            default:
                i += 1
            }
        }
    }
}
