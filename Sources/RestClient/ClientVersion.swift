import RestProtocol

extension RestdClient {
    /// The version of this client (and of the protocol it speaks), for `restctl --version`.
    public static let clientVersion = RestBus.version
}
