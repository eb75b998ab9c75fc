import Localization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files restctl writes (`report --output`): written whole beside the target, then renamed over
/// it, so that a reader never sees half a file and a failure leaves the old one as it was.
enum FileOutput {
    /// Replaces the file at `path` with `text` (mode 0644 less the umask); returns its absolute path.
    static func replace(_ path: String, with text: String) throws(RestctlError) -> String {
        let absolute = path.hasPrefix("/") ? path : currentDirectory() + "/" + path
        let temporary = absolute + ".tmp-" + String(getpid())
        func failure(_ number: Int32) -> RestctlError {
            RestctlError(.failed, localized("could not write %1$s: %2$s", path, errorText(number)))
        }
        let descriptor = Glibc.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw failure(errno) }
        var text = text
        let writeError: Int32? = text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
        let closeError = close(descriptor) == 0 ? nil : errno
        if let number = writeError ?? closeError {
            unlink(temporary)
            throw failure(number)
        }
        guard rename(temporary, absolute) == 0 else {
            let number = errno
            unlink(temporary)
            throw failure(number)
        }
        return absolute
    }

    static func currentDirectory() -> String {
        getcwd(nil, 0).map { pointer in
            defer { free(pointer) }
            return String(cString: pointer)
        } ?? "."
    }
}

/// strerror's sentence for an errno value, in lower case as restctl's sentences go on.
func errorText(_ number: Int32) -> String {
    let text = String(cString: strerror(number))
    return text.prefix(1).lowercased() + text.dropFirst()
}
