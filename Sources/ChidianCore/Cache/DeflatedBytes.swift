import CompressNIO
import NIOConcurrencyHelpers
import NIOCore

/// Bytes kept as a raw deflate stream that ends on a byte boundary with no final block (a sync flush), with the
/// CRC-32 and size of what it holds: streams compressed apart can then follow one another inside one gzip member,
/// so a page of kept pieces goes to a browser as it is kept, never inflated and compressed again (`GzipMember`).
package struct DeflatedBytes: Sendable {
    package let stream: [UInt8]
    package let size: Int
    package let crc: UInt32

    package init(deflating bytes: [UInt8]) throws {
        guard !bytes.isEmpty else {
            (stream, size, crc) = ([], 0, 0)  // nothing needs no block
            return
        }
        let compressor = try Self.deflaters.take { try ZlibCompressor(algorithm: .deflate) }
        defer { Self.deflaters.give(compressor) { try $0.reset() } }
        var input = ByteBuffer(bytes: bytes)
        var output = ByteBufferAllocator().buffer(capacity: compressor.maxSize(from: input))
        try compressor.deflate(from: &input, to: &output, flush: .sync)
        guard input.readableBytes == 0 else { throw CompressNIOError.bufferOverflow }
        stream = Array(output.readableBytesView)
        size = bytes.count
        crc = CRC32.checksum(bytes)
    }

    /// The bytes again, for a client that does not take gzip.
    package func inflated() throws -> [UInt8] {
        guard size > 0 else { return [] }
        let decompressor = try Self.inflaters.take { try ZlibDecompressor(algorithm: .deflate) }
        defer { Self.inflaters.give(decompressor) { try $0.reset() } }
        var input = ByteBuffer(bytes: stream)
        // Room to spare: CompressNIO takes a full output buffer for one that was too small.
        var output = ByteBufferAllocator().buffer(capacity: size + 64)
        try decompressor.inflate(from: &input, to: &output)
        guard output.readableBytes == size else { throw CompressNIOError.corruptData }
        return Array(output.readableBytesView)
    }

    /// zlib's streams cost about 270 kB of allocation to set up (a fifth of a missed store page's CPU): a few are
    /// kept and reset between uses.
    private static let deflaters = StreamPool<ZlibCompressor>()
    private static let inflaters = StreamPool<ZlibDecompressor>()
}

/// A few idle zlib streams; a stream is used by one caller at a time, taken out of the pool while in use. (A lock,
/// not a `Mutex`: the streams are not `Sendable`, and only this pool hands them from one task to the next.)
private final class StreamPool<Stream: AnyObject>: @unchecked Sendable {
    private let lock = NIOLock()
    private var idle: [Stream] = []

    func take(_ make: () throws -> Stream) throws -> Stream {
        try lock.withLock { idle.popLast() } ?? make()
    }

    /// Kept for the next caller when it resets cleanly and fewer than four wait; dropped otherwise.
    func give(_ stream: Stream, reset: (Stream) throws -> Void) {
        guard (try? reset(stream)) != nil else { return }
        lock.withLock { if idle.count < 4 { idle.append(stream) } }
    }
}
