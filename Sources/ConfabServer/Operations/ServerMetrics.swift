import ConfabProtocol
import Prometheus

/// The server's Prometheus metrics (`GET /metrics`). Counters count events where they happen
/// (the coordinator calls `ringStarted`, `participantJoined`, `errorAnswered`); gauges are not
/// kept up to date here but read from their owners when scraped (`exposition`), so there is one
/// owner per number and nothing to drift.
final class ServerMetrics: Sendable {
    private let registry = PrometheusCollectorRegistry()
    private let rings: Counter
    private let joins: Counter
    private let connections: Gauge
    private let callsInMemory: Gauge
    private let callsWithParticipants: Gauge
    private let participants: Gauge
    private let databaseUp: Gauge
    /// Only when this server manages a Janus: a constant 0 would read as "down".
    private let janusUp: Gauge?

    /// What the owners say at scrape time.
    struct Snapshot: Sendable {
        var connections: Int
        var callsInMemory: Int
        var callsWithParticipants: Int
        var participants: Int
        var databaseReachable: Bool
        /// nil when this server manages no Janus (media off, or an external one it does not watch).
        var managedJanusUp: Bool?
        /// Every Janus node rooms go on (the managed one, or each `--janus`/`--janus-node`).
        var janusNodes: [JanusRooms.NodeStatus] = []
    }

    init(managesJanus: Bool) {
        rings = registry.makeCounter(descriptor: Self.name("rings", unit: "total", "Rings started or extended (ringCall, or a ring on create)."))
        joins = registry.makeCounter(
            descriptor: Self.name("joins", unit: "total", "Participants admitted to a call (a rejoin on the same connection is not counted)."))
        connections = registry.makeGauge(descriptor: Self.name("connections", "Open WebSocket connections."))
        callsInMemory = registry.makeGauge(descriptor: Self.name("calls_in_memory", "Calls loaded from the database and in use."))
        callsWithParticipants = registry.makeGauge(descriptor: Self.name("calls_active", "Calls with at least one participant."))
        participants = registry.makeGauge(descriptor: Self.name("participants", "Participants in calls on this server."))
        databaseUp = registry.makeGauge(descriptor: Self.name("database_up", "1 when the database answered the scrape's check."))
        janusUp = managesJanus
            ? registry.makeGauge(descriptor: Self.name("janus_up", "1 when the Janus this server manages is running.")) : nil
    }

    /// `confab_NAME[_UNIT]`.
    private static func name(_ name: String, unit: String = "", _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "confab", metricName: name, unitName: unit, helpText: help)
    }

    func ringStarted() { rings.increment() }

    func participantJoined() { joins.increment() }

    /// Each error answer, by its protocol error code (a small fixed set, so the label is bounded).
    func errorAnswered(_ code: ErrorCode) {
        registry.makeCounter(descriptor: Self.name("errors", unit: "total", "Error answers sent to clients, by code."), labels: [("code", code.rawValue)])
            .increment()
    }

    /// The text exposition format, with the gauges set from `snapshot`.
    func exposition(_ snapshot: Snapshot) -> [UInt8] {
        connections.set(Double(snapshot.connections))
        callsInMemory.set(Double(snapshot.callsInMemory))
        callsWithParticipants.set(Double(snapshot.callsWithParticipants))
        participants.set(Double(snapshot.participants))
        databaseUp.set(to: snapshot.databaseReachable ? 1.0 : 0.0)
        if let janusUp, let up = snapshot.managedJanusUp { janusUp.set(to: up ? 1.0 : 0.0) }
        // The node list is fixed at start, so the `node` label (its URL) is bounded.
        for node in snapshot.janusNodes {
            let labels = [("node", node.name)]
            registry.makeGauge(descriptor: Self.name("janus_node_up", "1 while the coordinator's session with this Janus node lives."), labels: labels)
                .set(to: node.isUp ? 1.0 : 0.0)
            registry.makeGauge(descriptor: Self.name("janus_node_rooms", "Call rooms placed on this Janus node."), labels: labels)
                .set(Double(node.load.rooms))
            registry.makeGauge(descriptor: Self.name("janus_node_participants", "Participants admitted to rooms on this Janus node."), labels: labels)
                .set(Double(node.load.participants))
        }
        return registry.emitToBuffer()
    }
}
