import Foundation

/// Pinyin of names through ICU (Foundation's `mandarinToLatin`), tones and spaces dropped.
///
/// Only Han characters have pinyin; everything else in a name (Latin letters, digits, punctuation) is skipped, so
/// "老王BBQ烧烤" reads "lao wang shao kao" (its Latin part matches as typed anyway). Each run of Han characters is
/// transliterated whole, which lets ICU pick the reading of a word (重庆 → chong qing) rather than of each
/// character; a polyphonic character still gets ICU's one reading.
public enum Pinyin {
    /// The longest key kept: a query is at most 64 characters, so longer keys only need their first 64 to match.
    static let maxKeyLength = 64

    /// The syllables of the Han characters of `text`, lowercase ASCII ("火锅" → ["huo", "guo"]).
    public static func syllables(_ text: String) -> [String] {
        var syllables: [String] = []
        var run = String.UnicodeScalarView()
        func flush() {
            guard !run.isEmpty else { return }
            syllables += transliterate(String(run))
            run = String.UnicodeScalarView()
        }
        for scalar in text.unicodeScalars {
            if isHan(scalar) { run.append(scalar) } else { flush() }
        }
        flush()
        return syllables
    }

    /// Full pinyin without separators and the initials: "火锅" → ("huoguo", "hg").
    public static func spellings(_ text: String) -> (syllables: String, initials: String) {
        let parts = syllables(text)
        return (parts.joined(), String(parts.compactMap(\.first)))
    }

    /// The keys a pinyin query must be a prefix of: the full pinyin from each syllable onwards, and the initials
    /// from each letter onwards. "小龙坎" → xiaolongkan, longkan, kan, xlk, lk, k.
    public static func keys(_ text: String) -> Set<String> {
        let parts = syllables(text)
        let initials = parts.compactMap(\.first).map(String.init)
        var keys = Set<String>()
        for start in parts.indices {
            keys.insert(String(parts[start...].joined().prefix(maxKeyLength)))
            keys.insert(String(initials[start...].joined().prefix(maxKeyLength)))
        }
        return keys
    }

    /// CJK unified ideographs (with extensions A–G) and compatibility ideographs.
    static func isHan(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3007, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x323AF: return true
        default: return false
        }
    }

    /// "火锅" → ["huo", "guo"]; characters ICU cannot read are dropped.
    private static func transliterate(_ han: String) -> [String] {
        guard let latin = han.applyingTransform(.mandarinToLatin, reverse: false),
            let plain = latin.applyingTransform(.stripDiacritics, reverse: false)
        else { return [] }
        return plain.lowercased().split(whereSeparator: { !($0.isASCII && $0.isLetter) }).map(String.init)
    }
}
