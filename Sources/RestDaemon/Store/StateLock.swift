import RestProtocol

/// One restd per state directory: an exclusive flock on `restd.lock` in it, taken before the state
/// file is read and held while the store is open. Two daemons on one state file would each keep
/// their own book and overwrite each other's rows. The kernel drops the lock with the process, so
/// a restd killed with SIGKILL leaves nothing behind that the next one must clean up; the file
/// itself stays, and says who holds it only while someone does.
final class StateLock {
    let path: String
    private var descriptor: Int32?

    /// Why the state directory is not ours: another restd holds it (`holder` when its lock file says who).
    struct InUse: Error {
        let directory: String
        let holder: StateDirectory.Holder?

        var description: String { StateDirectory.inUseSentence(directory: directory, holder: holder) }
    }

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    /// Locks `directory` for `holder` (this process), writing its pid and bus into the lock file.
    static func acquire(
        directory: String, holder: StateDirectory.Holder
    ) throws(StoreError) -> Result<StateLock, InUse> {
        let path = directory + "/" + StateDirectory.lockFileName
        guard let descriptor = try StoreFiles.lockExclusively(path) else {
            let other = StateDirectory.Holder(lockFileText: StoreFiles.contents(of: path))
            return .failure(InUse(directory: directory, holder: other))
        }
        let lock = StateLock(path: path, descriptor: descriptor)
        try StoreFiles.rewrite(descriptor, path: path, with: holder.lockFileText)
        return .success(lock)
    }

    /// Lets the state go (the store is closed); the next restd may take it.
    func release() {
        guard let descriptor else { return }
        self.descriptor = nil
        StoreFiles.unlock(descriptor)
    }

    deinit { release() }
}
