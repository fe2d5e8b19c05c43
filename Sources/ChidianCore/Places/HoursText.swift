import Foundation

/// Hours as people write them — "周一至周五 11:00-14:00, 17:00-02:00；周六、周日 10:00-22:00", "Mon-Fri 11:00-14:00",
/// "每天 10:00-22:00", or times alone for every day — read into a schedule and written back the same way.
public enum HoursText {
    static let chineseDays = ["一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "日": 7, "天": 7, "七": 7]
    static let englishDays = ["mon": 1, "tue": 2, "wed": 3, "thu": 4, "fri": 5, "sat": 6, "sun": 7]
    static let everyDay: Set<String> = ["每天", "每日", "天天", "daily", "everyday", "every day", "全周"]

    /// The schedule, or 400 `invalid_hours` saying which part could not be read. Empty text is no schedule.
    public static func parse(_ text: String) throws -> WeeklyHours? {
        let clauses = text.split(whereSeparator: { ";；\n\r".contains($0) })
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !clauses.isEmpty else { return nil }
        var ranges: [WeeklyHours.Range] = []
        for clause in clauses {
            let firstDigit = clause.firstIndex(where: \.isASCIIDigitCharacter) ?? clause.endIndex
            let days = try Self.days(String(clause[..<firstDigit]))
            let times = try Self.times(String(clause[firstDigit...]), clause: clause)
            for day in days { for (open, close) in times { ranges.append(.init(day: day, open: open, close: close)) } }
        }
        return try WeeklyHours(ranges)
    }

    /// "周一至周五", "周六、周日", "Mon-Fri", "Sat,Sun", "每天" or nothing (every day).
    package static func days(_ raw: String) throws -> [Int] {
        let text = raw.lowercased().replacingOccurrences(of: "星期", with: "周").replacingOccurrences(of: "礼拜", with: "周")
            .trimmingCharacters(in: CharacterSet(charactersIn: " :：,，"))
        if text.isEmpty || everyDay.contains(text) { return Array(1...7) }
        var days: [Int] = []
        for token in text.split(whereSeparator: { "、,，/ ".contains($0) }) {
            let bounds = token.components(separatedBy: CharacterSet(charactersIn: "至到-–~"))
                .filter { !$0.isEmpty }
            guard (1...2).contains(bounds.count) else { throw unreadable(raw) }
            let numbers = try bounds.map { try day($0, whole: raw) }
            if numbers.count == 1 {
                days.append(numbers[0])
            } else {
                // A range may run over the week's end: 周五至周一.
                var day = numbers[0]
                while true {
                    days.append(day)
                    if day == numbers[1] { break }
                    day = day % 7 + 1
                }
            }
        }
        return Array(Set(days)).sorted()
    }

    package static func day(_ token: String, whole: String) throws -> Int {
        let name = token.trimmingCharacters(in: .whitespaces)
        if let number = chineseDays[String(name.hasPrefix("周") ? name.dropFirst() : Substring(name))] {
            return number
        }
        if name.count >= 3, let number = englishDays[String(name.prefix(3))] { return number }
        throw unreadable(whole)
    }

    /// "11:00-14:00, 17:00-02:00" (24:00 as a close means midnight).
    package static func times(_ raw: String, clause: String) throws -> [(Int, Int)] {
        var times: [(Int, Int)] = []
        let joined = raw.replacingOccurrences(of: "\\s*([-–—~至到])\\s*", with: "$1", options: .regularExpression)
        for part in joined.split(whereSeparator: { ",，、 ".contains($0) }) {
            let bounds = part.components(separatedBy: CharacterSet(charactersIn: "-–—~至到"))
            guard bounds.count == 2, let open = minute(bounds[0]), let close = minute(bounds[1], closing: true) else {
                throw unreadable(clause)
            }
            times.append((open, close))
        }
        guard !times.isEmpty else { throw unreadable(clause) }
        return times
    }

    static func minute(_ raw: String, closing: Bool = false) -> Int? {
        var text = raw.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "：", with: ":")
        if text.count == 4, text.dropFirst().hasPrefix(":") { text = "0" + text }
        if closing, text == "24:00" { return 0 }
        return WeeklyHours.minute(text)
    }

    static func unreadable(_ part: String) -> PlaceError {
        .invalidHours("Could not read \"\(part.prefix(80))\"; write hours like \"周一至周五 11:00-14:00, 17:00-02:00\".")
    }

    /// The schedule as people write it: days with the same ranges together, "周一至周五 11:00-14:00；周六 …".
    public static func format(_ hours: WeeklyHours, english: Bool = false) -> String {
        let names =
            english
            ? ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"] : ["周一", "周二", "周三", "周四", "周五", "周六", "周日"]
        func times(_ day: Int) -> String {
            hours.ranges.filter { $0.day == day }
                .map { WeeklyHours.clock($0.open) + "-" + WeeklyHours.clock($0.close) }.joined(separator: ", ")
        }
        var clauses: [String] = []
        var day = 1
        while day <= 7 {
            let text = times(day)
            var last = day
            while last < 7, times(last + 1) == text { last += 1 }
            if !text.isEmpty {
                let span =
                    day == 1 && last == 7
                    ? (english ? "Daily" : "每天")
                    : day == last ? names[day - 1] : names[day - 1] + (english ? "-" : "至") + names[last - 1]
                clauses.append(span + " " + text)
            }
            day = last + 1
        }
        return clauses.joined(separator: english ? "; " : "；")
    }
}

extension Character {
    var isASCIIDigitCharacter: Bool { isASCII && isNumber }
}
