import Foundation
import Mustache

// TEMPORARY: renders each page with swift-mustache too and records any difference (CHIDIAN_TEMPLATE_COMPARE=dir).
enum TemplateComparison {
    static let directory = ProcessInfo.processInfo.environment["CHIDIAN_TEMPLATE_COMPARE"]

    static func compare(
        _ template: String, root: TemplateFields, layout: TemplateFields, html: [UInt8], mustache: MustacheLibrary
    ) {
        guard let directory else { return }
        let body = mustache.render(any(.object(root)), withTemplate: template) ?? ""
        var layoutModel = any(.object(layout)) as! [String: Any]
        layoutModel["body"] = body
        let old = Array((mustache.render(layoutModel, withTemplate: "layout") ?? "").utf8)
        let name = "\(template)-\(UUID().uuidString)"
        let verdict = old == html ? "same" : "DIFF"
        try? Data(html).write(to: URL(fileURLWithPath: "\(directory)/\(verdict)-\(name).new.html"))
        if old != html { try? Data(old).write(to: URL(fileURLWithPath: "\(directory)/\(verdict)-\(name).old.html")) }
    }

    static func any(_ value: TemplateValue) -> Any {
        switch value {
        case .text(let text): text
        case .bytes(let bytes): String(decoding: bytes, as: UTF8.self)
        case .int(let number): number
        case .bool(let flag): flag
        case .list(let items): items.map(any)
        case .object(let object):
            if let fields = object as? TemplateFields { fields.all.mapValues(any) } else { object }
        }
    }
}
