import ChidianCore
import Foundation
import ServiceLifecycle

#if canImport(Glibc)
    import Glibc
#endif

/// Hands glibc's free pages back to the kernel every two seconds. A cache that replaces entries of a few kilobytes
/// leaves free chunks scattered through the heap, which glibc keeps mapped (it trims only the heap's top): RSS
/// grew to twice what the cache held. `malloc_trim` releases the free pages inside the heap as well.
package struct MallocTrimmer: Service {
    package var every: Duration = .seconds(2)

    package func run() async throws {
        #if canImport(Glibc)
            // malloc.h is not in the Glibc module: look `malloc_trim` up.
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
            let trim = unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
            await cancelWhenGracefulShutdown {
                while !Task.isCancelled {
                    try? await Task.sleep(for: every)
                    _ = trim(0)
                }
            }
        #endif
    }
}
