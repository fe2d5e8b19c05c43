import ChidianCore
import Foundation

/// Where generated stores are and when they open: around the real centres of the vocabulary's cities (WGS-84),
/// with schedules of the kinds restaurants keep. Drawn from their own stream, so adding places changed nothing
/// else a seed generates.
enum GeneratedPlaces {
    /// City centres (WGS-84 degrees), by `StoreVocabulary.cities` name.
    static let centres: [String: (lat: Double, lng: Double)] = [
        "北京": (39.9087, 116.3975), "上海": (31.2304, 121.4737), "广州": (23.1291, 113.2644),
        "深圳": (22.5431, 114.0579), "成都": (30.6598, 104.0633), "重庆": (29.5630, 106.5516),
        "杭州": (30.2741, 120.1551), "西安": (34.2658, 108.9541), "长沙": (28.2282, 112.9388),
        "武汉": (30.5928, 114.3055), "南京": (32.0603, 118.7969), "沈阳": (41.8057, 123.4315),
    ]

    /// Weekly schedules as (open, close) ranges repeated on the days given (1 = Monday).
    static let schedules: [(ranges: [(String, String)], days: ClosedRange<Int>)] = [
        ([("10:00", "22:00")], 1...7),
        ([("11:00", "14:00"), ("17:00", "21:30")], 1...7),
        ([("11:30", "14:30"), ("17:30", "22:00")], 2...7),
        ([("17:00", "02:00")], 1...7),
        ([("06:30", "14:00")], 1...7),
        ([("11:00", "23:00")], 1...7),
        ([("00:00", "00:00")], 1...7),
    ]
    /// How often each schedule is drawn (of 100).
    static let weights = [30, 25, 10, 15, 8, 10, 2]

    /// The schedule a generated description states ("营业时间 17:00–次日02:00，人均 …"), every day; nil without one.
    static func stated(in description: String) -> WeeklyHours? {
        guard let start = description.range(of: "营业时间 "),
            let end = description.range(of: "，", range: start.upperBound..<description.endIndex)
        else { return nil }
        let text = description[start.upperBound..<end.lowerBound].replacingOccurrences(of: "次日", with: "")
        return try? HoursText.parse(text)
    }

    /// `"location":{…},"hours":[…]` for one store in `city`, after a comma the caller writes: the hours its
    /// description states, or else one of the common schedules.
    static func write(
        city: String, description: String, to writer: inout JSONTextWriter, rng: inout SeededRandom
    ) {
        let centre = centres[city] ?? (31.2304, 121.4737)
        // Within about 8 km of the centre, more often near it.
        let distance = 8000 * pow(rng.unit(), 0.7)
        let bearing = 2 * Double.pi * rng.unit()
        let lat = centre.lat + distance * cos(bearing) / 111_195
        let lng = centre.lng + distance * sin(bearing) / (111_195 * cos(centre.lat * Double.pi / 180))
        writer.raw("\"location\":{\"lat\":")
        writer.number(lat, decimals: 6)
        writer.raw(",\"lng\":")
        writer.number(lng, decimals: 6)
        writer.raw("},\"hours\":[")
        var pick = rng.below(100)
        var index = 0
        while pick >= weights[index] {
            pick -= weights[index]
            index += 1
        }
        let schedule = schedules[index]
        var ranges: [(day: Int, open: String, close: String)] = []
        if let stated = stated(in: description) {
            ranges = stated.ranges.map { ($0.day, WeeklyHours.clock($0.open), WeeklyHours.clock($0.close)) }
        } else {
            for day in schedule.days { for (open, close) in schedule.ranges { ranges.append((day, open, close)) } }
        }
        for (n, range) in ranges.enumerated() {
            if n > 0 { writer.raw(",") }
            writer.raw("{\"day\":")
            writer.int(range.day)
            writer.raw(",\"open\":")
            writer.string(range.open)
            writer.raw(",\"close\":")
            writer.string(range.close)
            writer.raw("}")
        }
        writer.raw("]")
    }
}

extension JSONTextWriter {
    /// A finite number rounded to `decimals` places.
    mutating func number(_ value: Double, decimals: Int) {
        let scale = pow(10, Double(decimals))
        escaped(Array(String((value * scale).rounded() / scale).utf8))
    }
}
