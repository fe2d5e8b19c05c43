import Foundation

/// The contract's `{timeZone, days: [{day, hours}], now}` for one moment.
public struct PopularTimesAnswer: Sendable, JSONWritable {
    public var times: PopularTimes
    public var at: Date

    public init(times: PopularTimes, at: Date) {
        self.times = times
        self.at = at
    }

    public func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("timeZone"); json.string(times.timeZone)
            json.key("days")
            json.array(times.week) { json, day in
                json.object { json in
                    json.key("day"); json.int(day.day)
                    json.key("hours"); json.array(day.hours) { json, share in json.int(share) }
                }
            }
            json.key("now"); json.int(times.now(at: at))
        }
    }
}
