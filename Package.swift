// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "orientd",
    products: [
        .executable(name: "orientd", targets: ["orientd"]),
        .executable(name: "orientctl", targets: ["orientctl"]),
        .library(name: "OrientCore", targets: ["OrientCore"]),
        // For the benchmark package in Benchmarks/, which depends on this one.
        .library(name: "OrientTrace", targets: ["OrientTrace"]),
        .library(name: "OrientProtocol", targets: ["OrientProtocol"]),
        .library(name: "OrientConfiguration", targets: ["OrientConfiguration"]),
        .library(name: "OrientServer", targets: ["OrientServer"]),
        .library(name: "OrientScenarios", targets: ["OrientScenarios"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/apple/swift-numerics", from: "1.1.1"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        // The engine: orientation types, masks, mount matrices, the classifier. Standard library and
        // swift-numerics' RealModule only: no C, no I/O.
        .target(
            name: "OrientCore",
            dependencies: [.product(name: "RealModule", package: "swift-numerics")]
        ),
        // The settings: declared once (the table), read from the file and the command line, and what each running
        // part is handed of them at start and at every reload. Pure Swift, no I/O but the reading of text.
        .target(name: "OrientConfiguration", dependencies: ["OrientCore"]),
        // The trace format: a pure line parser plus streaming file reading and writing.
        .target(
            name: "OrientTrace",
            dependencies: [
                "OrientCore",
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // Thin C adapters: the libraries as they are, for OrientSensors' wrappers.
        .systemLibrary(name: "CIIO", pkgConfig: "libiio", providers: [.apt(["libiio-dev"])]),
        .systemLibrary(name: "CUdev", pkgConfig: "libudev", providers: [.apt(["libudev-dev"])]),
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        // sd-bus's object tables, which only C can write (its macros make compound literals).
        .target(name: "CSensorProxyBus", dependencies: ["CSystemd"]),
        // Swift concurrency's global-enqueue hook, reachable from C in a statically linked runtime too.
        .target(name: "CExecutorHook"),
        // evdev and uinput requests (ioctl macros), for reading the lid switch and reporting tablet mode.
        .target(name: "CLinuxInput"),
        // The interface between sample sources and the daemon: events, sensor descriptions, capture handles.
        // Pure Swift, so that the server can use it without linking libiio.
        .target(name: "OrientSampleSource", dependencies: ["OrientCore"]),
        // Small POSIX helpers: naming the threads that block in C calls and waking their poll; atomic file writes;
        // child processes (posix_spawn) and the environment.
        .target(name: "OrientPosix", dependencies: [.product(name: "SystemPackage", package: "swift-system")]),
        // Sample sources behind one small interface: replayed traces, live IIO sensors.
        .target(
            name: "OrientSensors",
            dependencies: [
                "OrientCore", "OrientTrace", "OrientInput", "OrientSampleSource", "OrientPosix", "CIIO", "CUdev",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Input devices: the tablet-mode switch orientd creates (uinput), the lid switch it reads (evdev).
        .target(name: "OrientInput", dependencies: ["CLinuxInput"]),
        // orientd-tablet-mode-switch: keeps the uinput switch as the daemon's socket says, and reads nothing else.
        .target(
            name: "OrientSwitchKeeper",
            dependencies: ["OrientInput", "OrientPosix", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // The socket protocol: requests, replies and events, shared by the daemon and orientctl.
        .target(
            name: "OrientProtocol",
            dependencies: ["OrientCore", .product(name: "NIOCore", package: "swift-nio")]
        ),
        // iio-sensor-proxy's D-Bus interface (net.hadess.SensorProxy), served through sd-bus for the desktops.
        .target(
            name: "OrientDBus",
            dependencies: [
                "OrientCore", "OrientPosix", "OrientSampleSource", "CSystemd", "CSensorProxyBus",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The daemon: configuration, persistent state, the publisher, the NIO socket server, systemd glue.
        .target(
            name: "OrientServer",
            dependencies: [
                "OrientConfiguration",
                "OrientCore",
                "OrientProtocol",
                "OrientSampleSource",
                "OrientPosix",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // The offline and diagnostic tools behind orientd's commands (doctor, plot, record, calibrate), apart from
        // the commands' argument parsing so that their logic has unit tests.
        .target(
            name: "OrientTools",
            dependencies: [
                "OrientCore", "OrientTrace", "OrientPosix", "OrientProtocol", "OrientSampleSource", "OrientSensors",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "orientd",
            dependencies: [
                "OrientConfiguration",
                "OrientCore",
                "OrientProtocol",
                "OrientTrace",
                "OrientSensors",
                "OrientServer",
                "OrientDBus",
                "OrientInput",
                "OrientSwitchKeeper",
                "OrientPosix",
                "OrientSampleSource",
                "OrientTools",
                "OrientctlCommands",
                "CExecutorHook",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // `orientctl follow`'s compositor side: sway's, Hyprland's and niri's IPC, and the pure decisions.
        .target(
            name: "OrientFollow",
            dependencies: ["OrientProtocol", .product(name: "NIOCore", package: "swift-nio")]
        ),
        // orientctl's commands, in a library so that the release's one binary can serve as orientctl too.
        .target(
            name: "OrientctlCommands",
            dependencies: [
                "OrientCore",
                "OrientProtocol",
                "OrientFollow",
                "OrientPosix",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // orientctl on its own, for development builds and tests; `make release` builds orientd only.
        .executableTarget(name: "orientctl", dependencies: ["OrientctlCommands"]),
        // Synthesised recordings for tests and benchmarks: poses, rotations, noise, shaking, walking, falls.
        .target(
            name: "OrientScenarios",
            dependencies: ["OrientCore", .product(name: "RealModule", package: "swift-numerics")],
            path: "Tests/OrientScenarios"
        ),
        // What the tests that run a private D-Bus share (python-dbusmock's polkitd, activated on it), and the test
        // process's wide global executor, which its C part installs before main; the trace files that the tests
        // of orientd's commands, spawned and in process, write and read; and the stand-ins for Hyprland and niri
        // that orientctl follow's tests, spawned and in process, talk to.
        .target(
            name: "OrientTestSupport",
            dependencies: [
                "CWideGlobalExecutor", "OrientCore", "OrientScenarios", "OrientTrace",
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Tests/OrientTestSupport"),
        .target(name: "CWideGlobalExecutor", path: "Tests/CWideGlobalExecutor"),
        // Development tool: writes synthesised traces for demos and benchmarks. Not installed.
        .executableTarget(
            name: "scenario-trace",
            dependencies: [
                "OrientCore",
                "OrientScenarios",
                "OrientTrace",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Tests/ScenarioTool"
        ),
        // Development tool: the light filter over issue 39's family of rooms, without daemons (BENCHMARKS.md). Not
        // installed.
        .executableTarget(
            name: "light-family",
            dependencies: [
                "OrientCore",
                "OrientScenarios",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Tests/LightFamilyTool"
        ),
        .testTarget(
            name: "OrientCoreTests",
            dependencies: [
                "OrientCore",
                "OrientScenarios",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        // OrientScenarios for its seeded random generator.
        .testTarget(name: "OrientConfigurationTests", dependencies: ["OrientConfiguration", "OrientCore"]),
        .testTarget(name: "OrientTraceTests", dependencies: ["OrientTrace", "OrientCore", "OrientScenarios"]),
        .testTarget(
            name: "OrientSensorsTests",
            dependencies: [
                "OrientSensors", "OrientCore", "OrientSampleSource", "OrientScenarios", "OrientTrace",
                .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(
            name: "OrientProtocolTests",
            dependencies: [
                "OrientProtocol", "OrientCore", .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ]),
        // Logging for the facade run in-process; its fixture is the daemon's tests' GIO client.
        .testTarget(
            name: "OrientDBusTests",
            dependencies: [
                "OrientDBus", "OrientCore", "OrientSampleSource", "OrientTestSupport", .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(
            name: "OrientPosixTests",
            dependencies: ["OrientPosix", .product(name: "SystemPackage", package: "swift-system")]),
        // CLinuxInput for the kernel's event type, to build and read the events the switches decode and encode.
        .testTarget(name: "OrientInputTests", dependencies: ["OrientInput", "CLinuxInput"]),
        // The keeper's matcher and state in process; its lines checked against the daemon's own encoding.
        .testTarget(name: "OrientSwitchKeeperTests", dependencies: ["OrientSwitchKeeper", "OrientProtocol"]),
        .testTarget(name: "OrientFollowTests", dependencies: ["OrientFollow"]),
        // orientctl's commands run in process against a stand-in daemon on a socket of the test's own; what only a
        // process or the real daemon shows stays in OrientdTests.
        .testTarget(
            name: "OrientctlCommandsTests",
            dependencies: [
                "OrientctlCommands", "OrientProtocol", "OrientCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // NIOEmbedded and Logging to drive the sensor pipeline on an embedded event loop.
        .testTarget(
            name: "OrientServerTests",
            dependencies: [
                "OrientServer", "OrientConfiguration", "OrientCore", "OrientProtocol", "OrientPosix", "OrientSampleSource",
                "OrientScenarios", "OrientTrace",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
            ]),
        .testTarget(
            name: "OrientToolsTests",
            dependencies: [
                "OrientTools", "OrientCore", "OrientScenarios", "OrientTrace", "OrientSampleSource", "OrientSensors",
                .product(name: "Logging", package: "swift-log"),
            ]),
        // orientd's executable module in process: its offline commands (classify, plot, check-config), parsed from
        // their arguments, their work writing to a string, and the daemon's wiring (its parts and their settings);
        // orientctl's --version beside them. What only a process shows stays in OrientdTests.
        .testTarget(
            name: "OrientdCommandsTests",
            dependencies: [
                "orientd", "OrientctlCommands", "OrientConfiguration", "OrientCore", "OrientScenarios", "OrientTrace",
                "OrientTestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]),
        // orientctl follow in process: the command's work against stand-ins for Hyprland and niri and for orientd,
        // its lines and messages in a transcript; the whole path (the real daemon and orientctl, sway) stays in
        // OrientdTests.
        .testTarget(
            name: "OrientctlFollowTests",
            dependencies: [
                "OrientctlCommands", "OrientCore", "OrientProtocol", "OrientTestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .testTarget(
            name: "OrientdTests",
            dependencies: [
                "OrientConfiguration", "OrientCore", "OrientTrace", "OrientProtocol", "OrientScenarios", "OrientServer", "orientd",
                "OrientTestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            // The umockdev testbed helper, run with python3 by the live-sensor tests.
            exclude: ["Fixtures"]
        ),
    ]
)
