// swift-tools-version:6.1
// The benchmarks, apart from the root package so that their dependencies stay out of its build and CI.
// Run: cd Benchmarks && swift package benchmark
import PackageDescription

let package = Package(
    name: "orientd-benchmarks",
    dependencies: [
        .package(name: "orientd", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
    ],
    targets: [
        .executableTarget(
            name: "EngineBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "OrientCore", package: "orientd"),
                .product(name: "OrientTrace", package: "orientd"),
                .product(name: "OrientProtocol", package: "orientd"),
                .product(name: "OrientServer", package: "orientd"),
                .product(name: "OrientScenarios", package: "orientd"),
            ],
            path: "Benchmarks/EngineBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Event latency over the real socket, against a running orientd (see BENCHMARKS.md).
        .executableTarget(
            name: "fanout-latency",
            dependencies: [
                .product(name: "OrientProtocol", package: "orientd"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            path: "FanoutLatency"
        ),
    ]
)
