// swift-tools-version:6.1
// libFuzzer targets for orientd's parsers, apart from the root package so that sanitizer builds stay out of it.
// Build and run: scripts/fuzz.sh (see RELIABILITY.md). Each target defines LLVMFuzzerTestOneInput; libFuzzer
// supplies main, so the sources have no top-level code.
import PackageDescription

let package = Package(
    name: "orientd-fuzz",
    dependencies: [
        .package(name: "orientd", path: ".."),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
    ],
    targets: [
        // The trace line parser and TraceReader on the same bytes.
        .executableTarget(
            name: "fuzz-trace",
            dependencies: [
                .product(name: "OrientCore", package: "orientd"),
                .product(name: "OrientTrace", package: "orientd"),
            ]
        ),
        // MountMatrix(parsing:), the text form of IIO's mount_matrix and systemd hwdb's ACCEL_MOUNT_MATRIX.
        .executableTarget(
            name: "fuzz-mount-matrix",
            dependencies: [.product(name: "OrientCore", package: "orientd")]
        ),
        // KeyValueFile and ConfigurationFile on a whole orientd.conf.
        .executableTarget(
            name: "fuzz-configuration",
            dependencies: [
                .product(name: "OrientCore", package: "orientd"),
                .product(name: "OrientConfiguration", package: "orientd"),
            ]
        ),
        // LineFrameDecoder then RequestDecoder, as a connection's bytes go through the daemon.
        .executableTarget(
            name: "fuzz-request",
            dependencies: [
                .product(name: "OrientCore", package: "orientd"),
                .product(name: "OrientProtocol", package: "orientd"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ]
        ),
    ]
)
