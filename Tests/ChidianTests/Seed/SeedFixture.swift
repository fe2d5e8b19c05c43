import Foundation

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// A seed directory written by a test: the original app's shape, with small real PNG headers as images.
struct SeedFixture {
    var users: [[String: Any]] = [
        ["id": "u001", "name": "User1", "keyword": "111", "type": "user"],
        ["id": "u002", "name": "User2", "keyword": "222", "type": "user"],
        ["id": "u004", "name": "Manager4", "keyword": "111", "type": "manager"],
        ["id": "u005", "name": "Manager5", "keyword": "555", "type": "manager"],
    ]
    var stores: [[String: Any]] = [
        [
            "id": "s001", "name": "蜀香火锅", "imageName": ["s001_1", "s001_2"], "category": "火锅", "manager": "u004",
            "sumCost": 300, "staredUserId": ["u001", "u002", "u999"],
        ],
        [
            "id": "s002", "name": "老北京炸酱面", "imageName": [], "category": "面馆", "manager": "u004", "sumCost": 0,
            "staredUserId": [],
        ],
        [
            "id": "s003", "name": "粤式早茶", "imageName": ["s003_1"], "category": "粤菜", "manager": "u005", "sumCost": 50,
            "staredUserId": ["u001"],
        ],
    ]
    var comments: [[String: Any]] = [
        [
            "id": "c001", "store_id": "s001", "user_id": "u001", "rating": 5, "context": "毛肚很新鲜，鸭血也不错",
            "commentImageName": ["c001_1"],
        ],
        [
            "id": "c002", "store_id": "s001", "user_id": "u002", "rating": 3,
            "context": "排队太久了，but the hot pot was good", "commentImageName": [],
        ],
        [
            "id": "c003", "store_id": "s001", "user_id": "u004", "rating": 0, "context": "本周末全场八折",
            "commentImageName": [],
        ],
        [
            "id": "c004", "store_id": "s003", "user_id": "u001", "rating": 4, "context": "虾饺皮薄馅大",
            "commentImageName": [],
        ],
    ]
    var images = ["s001_1", "s001_2", "s003_1", "c001_1"]
    var extraFiles: [String: Data] = [:]

    static func png(width: UInt32, height: UInt32) -> Data {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
        bytes += Array("IHDR".utf8)
        for value in [width, height] {
            bytes += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
        }
        bytes += [8, 2, 0, 0, 0, 0, 0, 0, 0]
        bytes += [0, 0, 0, 0] + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82]
        return Data(bytes)
    }

    /// Writes the directory and returns it.
    func write() throws -> URL {
        let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("seed-\(UUID().uuidString)")
        let folder = directory.appendingPathComponent("images")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try JSONSerialization.data(withJSONObject: users, options: [.prettyPrinted]).write(
            to: directory.appendingPathComponent("userInfo.json"))
        try JSONSerialization.data(withJSONObject: stores, options: [.prettyPrinted]).write(
            to: directory.appendingPathComponent("store.json"))
        try JSONSerialization.data(withJSONObject: comments, options: [.prettyPrinted]).write(
            to: directory.appendingPathComponent("comment.json"))
        for (index, name) in images.enumerated() {
            try Self.png(width: UInt32(10 + index), height: 8).write(to: folder.appendingPathComponent("\(name).png"))
        }
        for (name, data) in extraFiles { try data.write(to: directory.appendingPathComponent(name)) }
        return directory
    }
}
