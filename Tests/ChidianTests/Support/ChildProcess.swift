import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A child process for the tests that run the built binary, started with `posix_spawn` and waited for by polling
/// `waitpid` between sleeps: no test thread blocks on it and every wait has a deadline, so a child that hangs fails
/// its test by name instead of stalling the whole run (Foundation's `Process.waitUntilExit` blocks a thread of the
/// two-thread pool for as long as the child lives). Output goes to files, never to pipes that could fill.
final class ChildProcess: Sendable {
    let pid: pid_t
    let outputURL: URL
    let errorURL: URL

    /// Starts `executable` in `directory` with exactly `environment`, `input` as its standard input.
    init(
        _ executable: URL, _ arguments: [String], environment: [String: String], directory: String,
        input: String? = nil, errorToOutput: Bool = false
    ) throws {
        let base = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("chidian-\(UUID().uuidString)")
        outputURL = base.appendingPathExtension("out")
        errorURL = errorToOutput ? outputURL : base.appendingPathExtension("err")
        let inputURL = base.appendingPathExtension("in")
        try Data((input ?? "").utf8).write(to: inputURL)
        defer { try? FileManager.default.removeItem(at: inputURL) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, inputURL.path, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputURL.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        if errorToOutput {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, errorURL.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        }
        // glibc's spawn has no portable chdir action: coreutils' `env -C` changes directory, then execs.
        let argv = ["/usr/bin/env", "-C", directory, executable.path] + arguments
        let envp = environment.map { "\($0.key)=\($0.value)" }
        var pid: pid_t = 0
        let status = withCStrings(argv) { argv in
            withCStrings(envp) { envp in posix_spawn(&pid, "/usr/bin/env", &actions, nil, argv, envp) }
        }
        guard status == 0 else { throw TestFailure("posix_spawn: \(String(cString: strerror(status)))") }
        self.pid = pid
    }

    /// The exit status (128 + signal when killed) if the child has ended, without waiting.
    var exitStatus: Int32? { reap() }

    /// The exit status once the child has ended, however long that takes: a child that never ends is a hang, which
    /// the suite's watchdog names with its test.
    func exited() async -> Int32 {
        while true {
            if let status = reap() { return status }
            // timing: a poll with no bound; it ends on the child's exit
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    /// As `exited()`, for `defer` blocks that cannot await.
    func exitedBlocking() -> Int32 {
        while true {
            if let status = reap() { return status }
            // timing: a poll with no bound; it ends on the child's exit
            usleep(20_000)
        }
    }

    func signal(_ signal: Int32) { kill(pid, signal) }

    var output: String { (try? String(contentsOf: outputURL, encoding: .utf8)) ?? "" }
    var error: String { (try? String(contentsOf: errorURL, encoding: .utf8)) ?? "" }

    func removeFiles() {
        try? FileManager.default.removeItem(at: outputURL)
        try? FileManager.default.removeItem(at: errorURL)
    }

    /// Collects the child's exit once; later calls see ECHILD and answer the status remembered in `reaped`.
    private func reap() -> Int32? {
        reaped.withLock { reaped in
            if let reaped { return reaped }
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            guard result == pid else { return nil }
            let exited = status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
            reaped = exited
            return exited
        }
    }

    private let reaped = Mutex<Int32?>(nil)
}

/// NUL-terminated C strings for the duration of `body`.
private func withCStrings<T>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> T) -> T {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { for pointer in pointers { free(pointer) } }
    return body(pointers)
}
