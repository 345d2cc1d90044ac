import ArgumentParser
import OrientFollow
import OrientPosix
import OrientProtocol

extension Orientctl {
    /// `orientctl follow`: turn the built-in screen, its touchscreen and its pen on sway, Hyprland and niri.
    struct Follow: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Turn the screen, touchscreen and pen with the interface orientation (sway, Hyprland, niri).",
            discussion: """
                Talks to the compositor through its own IPC socket. Each request is printed on standard output as \
                it is sent (with --dry-run, instead of being sent); lines starting with # say which compositor and \
                output are in use, and when the lock starts and ends. A locked rotation (orientctl lock, or \
                --no-autorotate) never turns the screen, not even at start; unlocking applies the current \
                orientation. When orientd or the compositor restarts, follow reconnects (waiting 0.1 s, doubling \
                to 5 s) and applies the current state again. Stopped by SIGINT or SIGTERM.
                """
        )

        @OptionGroup var connection: ConnectionOptions
        @OptionGroup var settings: SubscriptionOptions
        @Option(
            help: "auto (from SWAYSOCK, HYPRLAND_INSTANCE_SIGNATURE or NIRI_SOCKET), sway, hyprland or niri.",
            completion: .list(["auto"] + CompositorKind.allCases.map(\.rawValue)))
        var compositor = "auto"
        @Option(help: "The output to turn (default: the built-in eDP, LVDS or DSI panel, else the only output).")
        var output: String?
        @Flag(help: "Leave the touchscreen's mapping alone.") var noTouch = false
        @Flag(help: "Leave the pen's (tablet tools') mapping alone.") var noPen = false
        @Option(
            parsing: .upToNextOption,
            help: ArgumentHelp(
                "Input devices to turn off in tablet mode and on after, as the compositor names them "
                    + "(swaymsg -t get_inputs, hyprctl devices).", valueName: "device"))
        var disableInTabletMode: [String] = []
        @Flag(help: "Print the requests without sending them (the compositor is still asked for its outputs).")
        var dryRun = false

        func validate() throws {
            guard compositor == "auto" || CompositorKind(rawValue: compositor) != nil else {
                throw ValidationError("--compositor: expected auto, sway, hyprland or niri, not \"\(compositor)\"")
            }
        }

        func run() async throws {
            try await reportingErrors {
                try await follow(
                    environment: ProcessEnvironment.current, printingTo: .standard, subscribed: releaseStartupPages)
            }
        }

        /// The command's work, in `environment` (the compositor's session variables and XDG_RUNTIME_DIR): the
        /// compositor connected, then every state of orientd's handed to it, its lines and messages written to
        /// `printer`, until cancelled; `subscribed` is called once, after the first subscription.
        /// - Throws: ``ClientError``: no compositor to talk to at start, or one that came back without an output
        ///   to turn (69); niri asked to turn input devices off (64); orientd refusing the subscription (65), or
        ///   not letting follow connect at start (77).
        func follow(
            environment: [String: String], printingTo printer: FollowOutput,
            subscribed: @escaping @Sendable () -> Void = {}
        ) async throws {
            var kind = CompositorKind(rawValue: compositor)
            if kind == nil {
                do throws(FollowError) {
                    kind = try CompositorKind.detect(environment: environment)
                } catch {
                    throw ClientError(message: error.description, status: ExitCode(69))
                }
            }
            guard let kind else { return }
            if kind == .niri, !disableInTabletMode.isEmpty {
                throw ClientError(
                    message: "--disable-in-tablet-mode: niri's IPC cannot turn input devices off",
                    status: .validationFailure)
            }
            let link = CompositorLink(
                kind: kind, environment: environment, output: output, dryRun: dryRun,
                settings: FollowSettings(touch: !noTouch, pen: !noPen, disableInTabletMode: disableInTabletMode),
                printingTo: printer)
            // No compositor to talk to at start is a setup error, told at once (a restart later is waited for).
            try await link.connectAtStart()
            do {
                // Whichever side fails first ends follow: the daemon's loop, or the link finding a compositor it
                // cannot use after a restart.
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { try await followDaemon(link, printingTo: printer, subscribed: subscribed) }
                    group.addTask {
                        for await failure in link.failures { throw failure }
                        // The failures end only when follow is cancelled.
                        throw CancellationError()
                    }
                    defer { group.cancelAll() }
                    try await group.next()
                }
            } catch {
                await link.stop()
                throw error
            }
        }

        /// Subscribes and hands every state to the compositor side; reconnects when the daemon goes away.
        private func followDaemon(
            _ link: CompositorLink, printingTo printer: FollowOutput, subscribed: @escaping @Sendable () -> Void
        ) async throws {
            var backoff = Backoff()
            var subscribedOnce = false
            while true {
                do {
                    try await DaemonClient.withConnection(path: connection.path) { client in
                        let reply = try await client.request(.subscribe(settings.subscription()))
                        backoff.reset()
                        await link.update(FollowState(reply))
                        if !subscribedOnce { subscribed() }
                        subscribedOnce = true
                        while let (_, message) = try await client.nextLine() {
                            guard message.event != nil else { continue }
                            await link.update(FollowState(message))
                        }
                    }
                    // Cancelled (follow ending): the connection closed on our side, nothing to report.
                    try Task.checkCancellation()
                    printer.message("orientctl: orientd closed the connection; reconnecting\n")
                } catch let error as ClientError
                    where error.status == ExitCode(65) || !subscribedOnce && error.status != ExitCode(69)
                {
                    // A refused subscription (a bad mask) and, at start, permission denied are the user's to fix.
                    // After a restart permission denied is the moment between the daemon binding its socket and
                    // setting its mode.
                    throw error
                } catch {
                    try Task.checkCancellation()
                    // Not running, reset by a daemon killed mid-line, or gone: all end in the same retry.
                    if backoff.isFirst {
                        printer.message("orientctl: \((error as? ClientError)?.message ?? "\(error)"); retrying\n")
                    }
                }
                try await Task.sleep(for: backoff.next())
            }
        }
    }
}

/// Where follow writes: its lines (the requests, and `#` lines saying what it does) to standard output, its
/// messages (each a whole line) to standard error. Tests give it a transcript instead.
struct FollowOutput: Sendable {
    let line: @Sendable (String) -> Void
    let message: @Sendable (String) -> Void

    static let standard = FollowOutput(line: { printLine($0) }, message: { writeStandardError($0) })
}

extension FollowState {
    /// The fields follow uses, from one of the daemon's lines; a daemon from before `rotation` leaves it nil,
    /// and the interface orientation decides (as on a portrait panel).
    init(_ message: ServerMessage) {
        self.init(
            interface: message.interface ?? "unknown", locked: message.locked ?? false, tabletMode: message.tabletMode,
            rotation: message.rotation)
    }
}

/// Waits between reconnections: 0.1 s, doubling to 5 s.
struct Backoff {
    private var delay = Duration.milliseconds(100)
    private(set) var isFirst = true

    mutating func next() -> Duration {
        defer {
            isFirst = false
            delay = min(delay * 2, .seconds(5))
        }
        return delay
    }

    mutating func reset() {
        delay = .milliseconds(100)
        isFirst = true
    }
}

/// The compositor side: one connection at a time, the planner's memory of what it applied there, and the newest
/// state, applied again whenever a new connection is made.
actor CompositorLink {
    /// A compositor found after a restart that follow cannot use (no output to turn): follow ends with it.
    nonisolated let failures: AsyncStream<ClientError>
    private let failed: AsyncStream<ClientError>.Continuation
    private let kind: CompositorKind
    private let environment: [String: String]
    private let requestedOutput: String?
    private let dryRun: Bool
    private let settings: FollowSettings
    private var client: (any CompositorClient)?
    private var output = ""
    private var planner: FollowPlanner
    private var latest: FollowState?
    private var reconnecting = false
    private var reportedLock = false
    private let printer: FollowOutput
    /// Set when follow ends (or is about to): nothing more is applied, and reconnecting stops.
    private var stopped = false

    init(
        kind: CompositorKind, environment: [String: String], output: String?, dryRun: Bool, settings: FollowSettings,
        printingTo printer: FollowOutput
    ) {
        (failures, failed) = AsyncStream.makeStream()
        self.printer = printer
        self.kind = kind
        self.environment = environment
        self.requestedOutput = output
        self.dryRun = dryRun
        self.settings = settings
        planner = FollowPlanner(settings: settings)
    }

    func update(_ state: FollowState) {
        guard !stopped else { return }
        latest = state
        if state.locked != reportedLock {
            printer.line(state.locked ? "# locked: the screen stays as it is" : "# unlocked")
            reportedLock = state.locked
        }
        if client == nil {
            // While the reconnection loop runs, it applies the newest state once it succeeds.
            guard !reconnecting, connect() else { return }
        }
        apply()
    }

    /// Applies the newest state; a failure that a restart may cure drops the connection and starts reconnecting.
    private func apply() {
        guard let client, let latest else { return }
        let actions = planner.actions(for: latest)
        do {
            for request in try client.requests(for: actions, output: output) {
                if !dryRun { try client.send(request) }
                printer.line(request)
            }
        } catch {
            printer.message("orientctl: \(error.description)\n")
            if error.retry { lost(client) }
        }
    }

    /// The first connection, made before orientd is asked for anything, with --dry-run too (which still asks the
    /// compositor for its outputs): without one, follow exits 69 with the reason.
    func connectAtStart() throws(ClientError) {
        do {
            try adopt(try CompositorSocket.connect(kind, environment: environment))
        } catch {
            throw ClientError(message: error.description, status: ExitCode(69))
        }
    }

    /// Connects and chooses the output; on failure starts the reconnection loop and returns false.
    private func connect() -> Bool {
        do {
            try adopt(try CompositorSocket.connect(kind, environment: environment))
            return true
        } catch {
            guard error.retry else {
                fail(error)
                return false
            }
            printer.message("orientctl: \(error.description)\n")
            startReconnecting()
            return false
        }
    }

    /// Takes a new connection: its output, and a planner that has applied nothing there yet.
    private func adopt(_ candidate: any CompositorClient) throws(FollowError) {
        output = try OutputChoice.choose(from: try candidate.outputNames(), requested: requestedOutput)
        client = candidate
        planner = FollowPlanner(settings: settings)
        let dialect = candidate.dialect.map { ", " + $0 } ?? ""
        printer.line("# \(kind.rawValue) at \(candidate.socketPath), output \(output)\(dialect)")
        watch(candidate)
    }

    /// A thread waits for the compositor to go away (it blocks in poll or read, so not on Swift's few
    /// cooperative threads).
    private func watch(_ candidate: any CompositorClient) {
        startThread(name: "follow-watch") { [weak self] in
            candidate.waitUntilGone()
            Task { await self?.lost(candidate) }
        }
    }

    private func lost(_ gone: any CompositorClient) {
        guard client === gone else { return }
        printer.message("orientctl: lost \(kind.rawValue) at \(gone.socketPath); reconnecting\n")
        client = nil
        startReconnecting()
    }

    private func startReconnecting() {
        guard !reconnecting else { return }
        reconnecting = true
        Task {
            var backoff = Backoff()
            while await !self.tryReconnect() {
                try? await Task.sleep(for: backoff.next())
            }
        }
    }

    /// One attempt of the reconnection loop; quiet while no socket answers, so a long absence logs nothing more.
    private func tryReconnect() -> Bool {
        guard !stopped else { return true }
        if client == nil {
            guard let candidate = try? CompositorSocket.connect(kind, environment: environment) else { return false }
            do {
                try adopt(candidate)
            } catch {
                guard error.retry else {
                    fail(error)
                    return true
                }
                printer.message("orientctl: \(error.description)\n")
                return false
            }
            apply()
        }
        reconnecting = false
        return true
    }

    /// Ends follow with `error`, exit status 69, as at start.
    private func fail(_ error: FollowError) {
        stopped = true
        failed.yield(ClientError(message: error.description, status: ExitCode(69)))
    }

    /// Lets go of the compositor when follow ends: no more requests, and no reconnecting.
    func stop() {
        stopped = true
        client = nil
        failed.finish()
    }
}
