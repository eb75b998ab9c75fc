import Clocks
import Foundation
import Glibc

/// What /proc says about a process: CPU time, context switches of all its threads, memory.
enum Proc {
    /// A /proc file's text (their size reads as 0, so read to the end).
    static func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 8192)
        while true {
            let count = Glibc.read(fd, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// utime + stime of every thread, in seconds (/proc/PID/stat fields 14 and 15).
    static func cpuSeconds(_ pid: pid_t) -> Double? {
        guard let stat = read("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else { return nil }
        // Fields after "comm)": state is field 3, so utime (14) is at index 11.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Voluntary and involuntary context switches summed over the process's threads.
    static func contextSwitches(_ pid: pid_t) -> (voluntary: Int, involuntary: Int)? {
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else { return nil }
        var voluntary = 0
        var involuntary = 0
        for task in tasks {
            guard let status = read("/proc/\(pid)/task/\(task)/status") else { continue }
            voluntary += field(status, "voluntary_ctxt_switches") ?? 0
            involuntary += field(status, "nonvoluntary_ctxt_switches") ?? 0
        }
        return (voluntary, involuntary)
    }

    /// Resident set size in KiB (VmRSS).
    static func rssKiB(_ pid: pid_t) -> Int? {
        read("/proc/\(pid)/status").flatMap { field($0, "VmRSS") }
    }

    /// The resident set split: anonymous memory (heap, stacks, written data) and file-backed
    /// pages (the binary's and libraries' code and read-only data, shared and reclaimable), KiB.
    static func rssSplitKiB(_ pid: pid_t) -> (anonymous: Int, file: Int)? {
        guard let status = read("/proc/\(pid)/status"), let anonymous = field(status, "RssAnon"),
            let file = field(status, "RssFile")
        else { return nil }
        return (anonymous, file)
    }

    /// Proportional set size in KiB (shared pages divided among their users).
    static func pssKiB(_ pid: pid_t) -> Int? {
        read("/proc/\(pid)/smaps_rollup").flatMap { field($0, "Pss") }
    }

    /// The resident pages of one mapped file that are still the file's (its code and read-only
    /// data; written copies of its data pages are anonymous), KiB: what the layout of restd's own
    /// binary decides (Package.swift, Sources/restd/restd.order). nil when the file is not mapped.
    static func mappedFileRSSKiB(_ pid: pid_t, file: String) -> Int? {
        guard let smaps = read("/proc/\(pid)/smaps") else { return nil }
        let path = URL(fileURLWithPath: file).resolvingSymlinksInPath().path
        var resident = 0
        var anonymous = 0
        var found = false
        var inFile = false
        for line in smaps.split(separator: "\n") {
            if line.first?.isUppercase == false {
                // A mapping's header ("start-end perms offset device inode path", " (deleted)" after
                // a replaced file); its fields' lines start with their capitalised names.
                inFile = line.hasSuffix(" " + path) || line.hasSuffix(" " + path + " (deleted)")
                found = found || inFile
            } else if inFile {
                resident += field(String(line), "Rss") ?? 0
                anonymous += field(String(line), "Anonymous") ?? 0
            }
        }
        return found ? resident - anonymous : nil
    }

    static func threadCount(_ pid: pid_t) -> Int? {
        read("/proc/\(pid)/status").flatMap { field($0, "Threads") }
    }

    /// The first integer after "name:" on its line.
    private static func field(_ text: String, _ name: String) -> Int? {
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            let value = line.dropFirst(name.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first
            return value.flatMap { Int($0) }
        }
        return nil
    }

    /// The 1-minute load average, to say how busy the machine was.
    static func loadAverage() -> Double {
        read("/proc/loadavg").flatMap { $0.split(separator: " ").first.flatMap { Double($0) } } ?? 0
    }
}

/// CPU time used by a process over a window, as a share of one core.
struct CPUMeter {
    let pid: pid_t
    private let startCPU: Double
    private let startWall: Double

    init(pid: pid_t) {
        self.pid = pid
        startCPU = Proc.cpuSeconds(pid) ?? 0
        startWall = KernelClock.monotonicSeconds
    }

    /// (CPU seconds used, share of one core) since init.
    func read() -> (seconds: Double, share: Double) {
        let cpu = (Proc.cpuSeconds(pid) ?? startCPU) - startCPU
        let wall = max(KernelClock.monotonicSeconds - startWall, 1e-9)
        return (cpu, cpu / wall)
    }
}
