import CSystemd
import EventLoop

/// Gives the heap back to the system after a large reply, or a start-up that read thousands of
/// timers. A week of sets is a reply of thousands of small values; once sent and freed, glibc
/// keeps the pages (fragmented, below its trim threshold) and an idle restd would stay megabytes
/// bigger for good; SQLite keeps up to 2 MiB of the pages it read. `releasing` (the store's
/// cache) and then `malloc_trim` run on the next loop iteration, once the reply is marshalled
/// and its values are released: in the same wake-up, never on a timer of its own.
final class MemoryTrimmer {
    /// Replies of at least this many entries are followed by a trim.
    static let threshold = 500

    /// What else holds memory it can let go of before the heap is trimmed. Set once, by the daemon.
    var releasing: () -> Void = {}
    private var source: DeferSource!

    init(loop: EventLoop) throws(SystemError) {
        source = try loop.addDefer { [unowned self] in
            source.isEnabled = false
            releasing()
            malloc_trim(0)
        }
    }

    /// Trims after this iteration when `entries` is large enough to matter.
    func replied(entries: Int) {
        guard entries >= Self.threshold else { return }
        source.enableOnce()
    }
}
