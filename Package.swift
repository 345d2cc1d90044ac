// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "orientd",
    products: [
        .executable(name: "orientd", targets: ["orientd"]),
        .library(name: "OrientCore", targets: ["OrientCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/apple/swift-numerics", from: "1.1.1"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        // The engine: orientation types, masks, mount matrices, the classifier. Standard library and
        // swift-numerics' RealModule only: no C, no I/O.
        .target(
            name: "OrientCore",
            dependencies: [.product(name: "RealModule", package: "swift-numerics")]
        ),
        // The trace format: a pure line parser plus streaming file reading and writing.
        .target(
            name: "OrientTrace",
            dependencies: [
                "OrientCore",
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // Sample sources behind one small interface: replayed traces, live IIO sensors.
        .target(name: "OrientSensors", dependencies: ["OrientCore", "OrientTrace"]),
        .executableTarget(
            name: "orientd",
            dependencies: [
                "OrientCore",
                "OrientTrace",
                "OrientSensors",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // Synthesised recordings for tests and benchmarks: poses, rotations, noise, shaking, walking, falls.
        .target(
            name: "OrientScenarios",
            dependencies: ["OrientCore", .product(name: "RealModule", package: "swift-numerics")],
            path: "Tests/OrientScenarios"
        ),
        // Development tool: writes synthesised traces for demos and benchmarks. Not installed.
        .executableTarget(
            name: "scenario-trace",
            dependencies: [
                "OrientScenarios",
                "OrientTrace",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Tests/ScenarioTool"
        ),
        .testTarget(
            name: "OrientCoreTests",
            dependencies: [
                "OrientCore",
                "OrientScenarios",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(name: "OrientTraceTests", dependencies: ["OrientTrace"]),
        .testTarget(name: "OrientdTests", dependencies: ["OrientCore", "OrientTrace", "OrientScenarios", "orientd"]),
    ]
)
