/// A page of comments whose items everyone sees alike are copied from their kept JSON (`cm:` entries), not written
/// again; an item the viewer liked is written, since its bytes differ. The same bytes as `Page`'s writer gives.
package struct RenderedCommentPage: Sendable, Encodable, JSONWritable {
    package var page: Page<CommentView>
    /// Each item's JSON as everyone sees it (`liked` false), by id; an item without is written.
    package var rendered: [String: [UInt8]]

    package init(_ page: Page<CommentView>, rendered: [String: [UInt8]] = [:]) {
        self.page = page
        self.rendered = rendered
    }

    package func write(to json: inout JSONWriter) {
        json.object { json in
            json.key("items")
            json.array(page.items) { json, item in item.write(to: &json, copying: rendered) }
            json.key("nextCursor")
            json.string(page.nextCursor)
        }
    }

    package func encode(to encoder: any Encoder) throws { try page.encode(to: encoder) }

    package var jsonCapacity: Int { 1024 + rendered.values.reduce(0) { $0 + $1.count } }
}

extension CommentView {
    /// This comment's kept JSON from `rendered` when it is everyone's (not liked by the viewer), or written.
    package func write(to json: inout JSONWriter, copying rendered: [String: [UInt8]]) {
        if !liked, let bytes = rendered[id] { json.raw(bytes) } else { write(to: &json) }
    }
}
