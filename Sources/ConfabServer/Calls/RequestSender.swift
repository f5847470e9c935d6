/// Who sent a request: the user and the device (connection) they sent it from.
struct RequestSender {
    var userId: String
    var connection: ClientConnection
}
