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
            json.array(page.items) { json, item in
                if !item.liked, let bytes = rendered[item.id] { json.raw(bytes) } else { item.write(to: &json) }
            }
            json.key("nextCursor")
            json.string(page.nextCursor)
        }
    }

    package func encode(to encoder: any Encoder) throws { try page.encode(to: encoder) }
}
