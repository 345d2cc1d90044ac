import OrientCore

/// When the sensor is open.
public enum SamplingPolicy: String, Sendable, Equatable, CaseIterable {
    /// Only while at least one client is subscribed, so an idle tablet has no wakeups from orientd.
    case onDemand = "on-demand"
    /// All the time.
    case always
}

/// Everything `orientd run` can be told, from the configuration file and the command line (which wins).
public struct DaemonConfiguration: Sendable, Equatable {
    public static let defaultPath = "/etc/orientd/orientd.conf"

    /// The Unix socket clients connect to (ignored under socket activation).
    public var socketPath = "/run/orientd/orientd.sock"
    /// Permissions of a socket orientd creates itself. Anyone may subscribe; control requests are authorised
    /// per peer (root or `controlGroup`), not by the socket's mode.
    public var socketMode: UInt16 = 0o666
    /// The system mask, until a client with permission sets another at run time.
    public var systemMask: InterfaceOrientationMask = .all
    /// The system's preferred interface orientation.
    public var preferred: InterfaceOrientation?
    /// What the panel's poses are called; `auto` finds the internal panel (``NaturalOrientation``).
    public var naturalOrientation: NaturalOrientationSetting = .auto
    /// The accelerometer to use: a driver name (`accel_3d`), an id (`iio:device0`) or a sysfs path.
    public var device: String?
    /// How samples become orientations and postures: classifier, mount matrix and its repair, posture, rotate-in.
    public var engine = EngineConfiguration()
    /// Samples per second asked of the sensor.
    public var rate: Double = 50
    /// `still-rate` as set: 5 Hz unless set (``RateSetting``).
    public var stillRateSetting = RateSetting.standard
    /// `rest-rate` as set: 2 Hz unless set (``RateSetting``).
    public var restRateSetting = RateSetting.standard
    public static let standardStillRate = 5.0
    public static let standardRestRate = 2.0

    /// Samples per second once the device has been still for a second (polled: read less often; buffered: asked
    /// through sampling_frequency); the full rate returns at the first reading that differs. nil (`still-rate =
    /// off`, or the default where `rate` or `classifier.max-sample-gap` leaves no room for it): always `rate`.
    public var stillRate: Double? {
        get { stillRateSetting.rate(standard: Self.standardStillRate, fits: fitsStillRate) }
        set { stillRateSetting = newValue.map(RateSetting.hz) ?? .off }
    }

    /// Samples per second once the device has been still for 10 s (a desk, a stand); nil (`rest-rate = off`, or the
    /// default where `classifier.max-sample-gap` leaves no room for it): the still rate. One above the still rate
    /// rests at the still rate; with no still rate there is no rest either.
    public var restRate: Double? {
        get { restRateSetting.rate(standard: Self.standardRestRate, fits: fitsRestRate) }
        set { restRateSetting = newValue.map(RateSetting.hz) ?? .off }
    }

    /// A still rate no faster than `rate`, and fast enough that the classifier does not take the gaps between its
    /// samples for a stalled sensor and restart its filter on them.
    func fitsStillRate(_ hz: Double) -> Bool { hz <= rate && 1 / hz < engine.classifier.maxSampleGap }

    func fitsRestRate(_ hz: Double) -> Bool { hz > 0 && 1 / hz < engine.classifier.maxSampleGap }
    public var sampling: SamplingPolicy = .onDemand
    /// Serve iio-sensor-proxy's net.hadess.SensorProxy on the system bus, for GNOME, KDE and Qt.
    public var dbus = false
    /// Members of this group (a name from /etc/group, or a number) may lock, unlock and set the mask; root always may.
    public var controlGroup: String?
    /// More connections than this are refused with an error line.
    public var maxClients = 1024
    /// Seconds a started request line may stay unfinished before the connection is closed: a client that sends
    /// half a line and stalls must not hold a place under max-clients for good.
    public var requestTimeout: Double = 10
    /// Where the rotation lock and a run-time mask are kept across restarts.
    public var stateDirectory = "/var/lib/orientd"
    /// Whether a tablet-mode switch (SW_TABLET_MODE, for libinput and the desktops) should exist
    /// (`tablet-mode-switch`): ``TabletModeSwitchPolicy`` decides `auto`.
    public var tabletModeSwitch = TabletModeSwitchSetting.auto
    /// The relative change of the ambient light level that is published, as a fraction (0.2 for `light-threshold
    /// = 20%`); 0 publishes every change at once, as iio-sensor-proxy does (``LightFilter``).
    public var lightThreshold = 0.2

    public init() {}

    /// Checks values that depend on each other.
    public func validate() throws(ConfigurationError) {
        do {
            try engine.classifier.validate()
        } catch {
            throw ConfigurationError(key: "classifier.\(error.key)", message: error.message)
        }
        do {
            try engine.posture.validate()
        } catch {
            throw ConfigurationError(key: error.key, message: error.message)
        }
        guard rate > 0, rate <= 1000 else { throw ConfigurationError(key: "rate", message: "\(rate) is outside 0 < rate <= 1000 Hz") }
        // Only rates the user set are checked: a default that does not fit gives way (``RateSetting``).
        if case .hz(let stillRate) = stillRateSetting, !fitsStillRate(stillRate) {
            throw ConfigurationError(
                key: "still-rate",
                message: "\(stillRate) must be at most rate (\(rate)) and faster than one sample per max-sample-gap (\(engine.classifier.maxSampleGap) s)")
        }
        // Above the still rate it rests at the still rate: a still-rate set lower alone is no error.
        if case .hz(let restRate) = restRateSetting, !fitsRestRate(restRate) {
            throw ConfigurationError(
                key: "rest-rate",
                message: "\(restRate) must be faster than one sample per max-sample-gap (\(engine.classifier.maxSampleGap) s)")
        }
        guard maxClients >= 1 else { throw ConfigurationError(key: "max-clients", message: "must be at least 1") }
        guard requestTimeout > 0, requestTimeout <= 3600 else {
            throw ConfigurationError(key: "request-timeout", message: "\(requestTimeout) is outside 0 < seconds <= 3600")
        }
        if let preferred, !systemMask.allows(preferred) {
            throw ConfigurationError(key: "preferred", message: "\(preferred) is not allowed by the mask \(systemMask)")
        }
    }
}

/// A configuration problem, naming the file, line and key where known.
public struct ConfigurationError: Error, Equatable, CustomStringConvertible {
    public var file: String?
    public var line: Int?
    public var key: String?
    public var message: String

    public init(file: String? = nil, line: Int? = nil, key: String? = nil, message: String) {
        self.file = file
        self.line = line
        self.key = key
        self.message = message
    }

    public var description: String {
        var place = file ?? ""
        if let line { place += place.isEmpty ? "line \(line)" : ":\(line)" }
        let prefix = place.isEmpty ? "" : place + ": "
        return prefix + (key.map { "\($0): " } ?? "") + message
    }
}
