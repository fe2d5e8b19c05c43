import Foundation
import NIOCore
import NIOPosix
import Synchronization

@testable import ChidianAPI
@testable import ChidianApp
@testable import ChidianCore
@testable import ChidianTools
@testable import ChidianWeb

/// A TCP proxy in front of the test server that reads what the application sends it in PostgreSQL's wire
/// protocol: the statements it runs (an Execute message each, or a simple Query) and the round trips they take
/// (a Sync or a simple Query ends each). Counted on the wire, below every layer of the application, so no
/// statement goes uncounted whichever pool, connection or helper runs it.
final class WireCounter: Sendable {
    struct Counts: Sendable, Equatable {
        var statements = 0
        var roundTrips = 0
        /// What ran, in order: a prepared statement's name, or the start of an unnamed one's SQL.
        var ran: [String] = []
    }

    private let counts = Mutex(Counts())

    /// The counts since the last call, which starts them again.
    func take() -> Counts {
        counts.withLock { counts in
            defer { counts = Counts() }
            return counts
        }
    }

    fileprivate func saw(_ type: UInt8, _ body: ByteBuffer, lastParse: inout String) {
        var body = body
        switch type {
        case UInt8(ascii: "P"):
            _ = body.readNullTerminatedString()
            lastParse = String((body.readNullTerminatedString() ?? "").prefix(60))
        case UInt8(ascii: "B"):
            _ = body.readNullTerminatedString()
            let name = body.readNullTerminatedString() ?? ""
            let ran = name.isEmpty ? lastParse : name
            counts.withLock { $0.ran.append(ran) }
        case UInt8(ascii: "E"):
            counts.withLock { $0.statements += 1 }
        case UInt8(ascii: "S"):
            counts.withLock { $0.roundTrips += 1 }
        case UInt8(ascii: "Q"):
            let sql = String((body.readNullTerminatedString() ?? "").prefix(60))
            counts.withLock {
                $0.statements += 1
                $0.roundTrips += 1
                $0.ran.append(sql)
            }
        default:
            break
        }
    }

    /// Runs `body` with a counter and `url` made to reach the same database through it.
    static func run<T>(to url: DatabaseURL, _ body: (WireCounter, DatabaseURL) async throws -> T) async throws -> T {
        let counter = WireCounter()
        let target =
            if let directory = url.socketDirectory {
                try SocketAddress(unixDomainSocketPath: "\(directory)/.s.PGSQL.\(url.port)")
            } else {
                try SocketAddress.makeAddressResolvingHost(url.host, port: url.port)
            }
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { inbound in
                ClientBootstrap(group: inbound.eventLoop)
                    .channelInitializer { outbound in
                        outbound.eventLoop.makeCompletedFuture {
                            try outbound.pipeline.syncOperations.addHandler(Relay(peer: inbound))
                        }
                    }
                    .connect(to: target)
                    .flatMapThrowing { outbound in
                        try inbound.pipeline.syncOperations.addHandlers(
                            FrontendReader(counter: counter), Relay(peer: outbound))
                    }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        var proxied = url
        proxied.host = "127.0.0.1"
        proxied.port = server.localAddress?.port ?? 0
        proxied.socketDirectory = nil
        do {
            let result = try await body(counter, proxied)
            try await server.close()
            return result
        } catch {
            try? await server.close()
            throw error
        }
    }
}

/// Passes every byte on to the other side's channel, and its closing too.
private final class Relay: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    let peer: any Channel

    init(peer: any Channel) {
        self.peer = peer
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        peer.writeAndFlush(unwrapInboundIn(data), promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        peer.close(promise: nil)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}

/// Splits what the application sends into messages for the counter, and passes it on unchanged.
private final class FrontendReader: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    let counter: WireCounter
    private var pending = ByteBuffer()
    /// Past the startup message, whose length has no type byte before it.
    private var started = false
    private var lastParse = ""

    init(counter: WireCounter) {
        self.counter = counter
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        pending.writeBuffer(&bytes)
        while readMessage() {}
        pending.discardReadBytes()
        context.fireChannelRead(data)
    }

    /// Reads one whole message off `pending`; false when it holds none.
    private func readMessage() -> Bool {
        let start = pending.readerIndex
        if !started {
            guard let length = pending.getInteger(at: start, as: Int32.self), length >= 8,
                pending.readableBytes >= Int(length), let code = pending.getInteger(at: start + 4, as: Int32.self)
            else { return false }
            pending.moveReaderIndex(forwardBy: Int(length))
            // SSLRequest and GSSENCRequest come before the startup message.
            started = code != 80_877_103 && code != 80_877_104
            return true
        }
        guard let type = pending.getInteger(at: start, as: UInt8.self),
            let length = pending.getInteger(at: start + 1, as: Int32.self), length >= 4,
            pending.readableBytes >= 1 + Int(length),
            let body = pending.getSlice(at: start + 5, length: Int(length) - 4)
        else { return false }
        pending.moveReaderIndex(forwardBy: 1 + Int(length))
        counter.saw(type, body, lastParse: &lastParse)
        return true
    }
}
