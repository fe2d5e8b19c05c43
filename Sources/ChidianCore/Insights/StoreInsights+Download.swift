import Hummingbird
import NIOCore

extension StoreInsights {
    /// The days as a CSV download, for the API and the manager's page alike.
    package var download: Response {
        let result = self
        let name = "insights-\(result.storeId)-\(result.days.first?.date ?? "")-\(result.days.last?.date ?? "").csv"
        return Response(
            status: .ok,
            headers: [
                .contentType: "text/csv; charset=utf-8", .cacheControl: "private, no-store",
                .contentDisposition: "attachment; filename=\"\(name)\"",
            ],
            body: .init(byteBuffer: ByteBuffer(string: result.csv)))
    }
}
