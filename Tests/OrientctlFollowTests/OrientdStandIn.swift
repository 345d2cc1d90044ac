import Foundation
import OrientCore
import OrientProtocol
import OrientTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// orientd as `follow` sees it, on a socket of the test's own: it answers the subscription with the state it was
/// given, then sends each state the test hands it as an event, as the daemon does after a change.
final class OrientdStandIn {
    let path: String
    private let listener: StandInListener
    private let subscriber = Subscriber()

    init(_ state: OrientationState) throws {
        path = "/tmp/follow-orientd-\(UUID().uuidString.prefix(8)).sock"
        let subscriber = subscriber
        listener = try StandInListener(path: path) { fd in
            guard let line = StandInListener.readLine(fd) else { return }
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            let id = (object?["id"] as? Int).map { RequestID.number(Double($0)) }
            subscriber.subscribed(fd, reply: ServerMessage.state(id: id, state).line)
            // Until follow hangs up.
            _ = StandInListener.readToEnd(fd)
            subscriber.unsubscribed(fd)
        }
    }

    /// Sends `state` as an event, at once or, before the subscription is answered, right after the reply.
    func send(_ state: OrientationState) {
        subscriber.send(ServerMessage.event(state).line)
    }

    deinit { listener.stop() }

    /// The subscriber's connection once answered, written to by the test and by the connection's thread.
    private final class Subscriber: @unchecked Sendable {
        private let lock = NSLock()
        private var connection: Int32?
        private var pending: [String] = []

        func subscribed(_ fd: Int32, reply: String) {
            lock.withLock {
                StandInListener.write(fd, reply + pending.joined())
                pending = []
                connection = fd
            }
        }

        func unsubscribed(_ fd: Int32) {
            lock.withLock { if connection == fd { connection = nil } }
        }

        func send(_ line: String) {
            lock.withLock {
                guard let connection else { return pending.append(line) }
                StandInListener.write(connection, line)
            }
        }
    }
}

extension OrientationState {
    /// The state orientd publishes for a portrait panel held with `interface` upright (its device orientation, and
    /// the content's turn counter-clockwise), unlocked unless said.
    static func showing(_ interface: InterfaceOrientation, locked: Bool = false, tabletMode: Bool? = nil) -> Self {
        let (device, rotation): (DeviceOrientation, Int) =
            switch interface {
            case .landscapeLeft: (.landscapeRight, 90)
            case .portraitUpsideDown: (.portraitUpsideDown, 180)
            case .landscapeRight: (.landscapeLeft, 270)
            default: (.portrait, 0)
            }
        return OrientationState(
            device: device, interface: interface, rotation: rotation, locked: locked, mask: .all, sensor: .available,
            time: 1, hinge: HingeState(tabletMode: tabletMode))
    }
}
