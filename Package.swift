// swift-tools-version:6.2
import PackageDescription

/// Settings every Sleeve target shares: Swift 6 language mode and zero warnings.
let strict: [SwiftSetting] = [.treatAllWarnings(as: .error)]

/// `strict`, and optimized in debug builds too: the answering side (the store, the statistics,
/// the CLI, the export), the tests' fixtures, and the dispatch core and its bridge.
/// `swift run sleeve ...` builds for debugging, and its answers rank, select and sum over every
/// recorded duration: `diff --exact` on `demo --history --fires 40000` took 3.2 s of CPU
/// unoptimized, 1.1 s optimized (generic statistics unspecialized), and the test suite spent
/// half its CPU there. The core and the bridge are optimized so that `swift test` runs their
/// handler-lifetime proofs, which only an optimized fire can fail, and CI needs no release
/// build for them (`OptimizedCoreTests` holds it). SleeveRecorder and SleeveTesting stay
/// unoptimized in debug. Root and path dependencies may use unsafe flags, which this is to
/// SwiftPM.
let optimizedInDebug: [SwiftSetting] =
  strict + [.unsafeFlags(["-O"], .when(configuration: .debug))]

let package = Package(
  name: "Sleeve",
  products: [
    .library(name: "SleeveCore", targets: ["SleeveCore"]),
    .library(name: "SleeveStore", targets: ["SleeveStore"]),
    .library(name: "SleeveRecorder", targets: ["SleeveRecorder"]),
    .library(name: "SleeveTesting", targets: ["SleeveTesting"]),
    .library(name: "SleeveQuery", targets: ["SleeveQuery"]),
    .library(name: "SleeveExport", targets: ["SleeveExport"]),
    .library(name: "SleeveHistory", targets: ["SleeveHistory"]),
    .library(name: "SleeveBridge", targets: ["SleeveBridge"]),
    .library(name: "SleeveUIKit", targets: ["SleeveUIKit"]),
    .library(name: "SleeveAppKit", targets: ["SleeveAppKit"]),
    .executable(name: "sleeve", targets: ["sleeve"]),
  ],
  targets: [
    .target(name: "SleeveCore", swiftSettings: optimizedInDebug),
    .target(name: "SleeveBridge", dependencies: ["SleeveCore"], swiftSettings: optimizedInDebug),
    .target(
      name: "SleeveUIKit", dependencies: ["SleeveBridge", "SleeveCore"], swiftSettings: strict),
    .target(
      name: "SleeveAppKit", dependencies: ["SleeveBridge", "SleeveCore"], swiftSettings: strict),
    .systemLibrary(
      name: "CSQLite",
      pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"])]
    ),
    .target(
      name: "SleeveStore",
      dependencies: ["CSQLite"],
      resources: [
        .embedInCode("../../Migrations/0001_initial.sql"),
        .embedInCode("../../Migrations/0002_row_ids.sql"),
        .embedInCode("../../Migrations/0003_run_context.sql"),
        .embedInCode("../../Migrations/0004_interactions.sql"),
        .embedInCode("../../Migrations/0005_summaries.sql"),
        .embedInCode("../../Migrations/0006_summary_rollups.sql"),
        .embedInCode("../../Migrations/0007_rollouts.sql"),
        .embedInCode("../../Migrations/0008_deliveries.sql"),
        .embedInCode("../../Migrations/0009_summary_checksums.sql"),
      ],
      swiftSettings: optimizedInDebug
    ),
    .target(
      name: "SleeveRecorder",
      dependencies: ["SleeveCore", "SleeveStore"],
      swiftSettings: strict
    ),
    .target(
      name: "SleeveQuery",
      dependencies: ["SleeveStore", "SleeveCore"],
      swiftSettings: optimizedInDebug
    ),
    .systemLibrary(
      name: "CZlib",
      pkgConfig: "zlib",
      providers: [.apt(["zlib1g-dev"])]
    ),
    .systemLibrary(
      name: "CCurl",
      pkgConfig: "libcurl",
      providers: [.apt(["libcurl4-openssl-dev"])]
    ),
    .target(
      name: "SleeveExport",
      dependencies: ["SleeveQuery", "SleeveStore", "CZlib", "CCurl"],
      swiftSettings: optimizedInDebug
    ),
    .systemLibrary(
      name: "CPostgres",
      pkgConfig: "libpq",
      providers: [.apt(["libpq-dev"])]
    ),
    .target(
      name: "SleeveHistory",
      dependencies: ["SleeveStore", "CPostgres"],
      resources: [.embedInCode("../../Migrations/postgresql/0001_history.sql")],
      swiftSettings: optimizedInDebug
    ),
    .target(
      name: "SleeveCLI",
      dependencies: [
        "SleeveExport", "SleeveQuery", "SleeveRecorder", "SleeveStore",
        "SleeveCore", "SleeveHistory",
      ],
      swiftSettings: optimizedInDebug
    ),
    .executableTarget(
      name: "sleeve",
      dependencies: ["SleeveCLI"],
      swiftSettings: strict
    ),
    .target(
      name: "SleeveTesting",
      dependencies: ["SleeveRecorder", "SleeveCore"],
      swiftSettings: strict
    ),
    .executableTarget(
      name: "SleeveRecorderProbe",
      dependencies: ["SleeveCore", "SleeveRecorder"],
      swiftSettings: strict
    ),
    .executableTarget(
      name: "SleeveBench",
      dependencies: ["SleeveCore", "SleeveStore", "SleeveRecorder", "SleeveQuery"],
      swiftSettings: strict
    ),
    .target(
      name: "SleeveTestSupport",
      dependencies: ["SleeveStore"],
      path: "Tests/SleeveTestSupport",
      swiftSettings: optimizedInDebug
    ),
    .testTarget(
      name: "SleeveCoreTests",
      dependencies: ["SleeveCore", "SleeveTestSupport"],
      swiftSettings: strict
    ),
    .testTarget(
      name: "SleeveRecorderTests",
      dependencies: [
        "SleeveRecorder", "SleeveStore", "SleeveCore", "SleeveTesting", "SleeveRecorderProbe",
        "SleeveTestSupport", "SleeveQuery",
      ],
      swiftSettings: strict
    ),
    .testTarget(
      name: "SleeveQueryTests",
      dependencies: [
        "SleeveQuery", "SleeveStore", "SleeveTestSupport", "SleeveRecorder", "SleeveCore",
      ],
      exclude: ["Fixtures"],
      swiftSettings: strict
    ),
    .testTarget(
      name: "SleeveCLITests",
      dependencies: [
        "SleeveCLI", "SleeveQuery", "SleeveStore", "SleeveRecorder", "SleeveCore",
        "SleeveTestSupport", "sleeve",
      ],
      exclude: ["Golden", "Schemas"],
      swiftSettings: strict
    ),
    .testTarget(
      name: "SleeveExportTests",
      dependencies: [
        "SleeveExport", "SleeveQuery", "SleeveStore", "SleeveRecorder", "SleeveCore",
        "SleeveTestSupport",
      ],
      swiftSettings: strict
    ),
    .testTarget(
      name: "SleeveBridgeTests",
      dependencies: [
        "SleeveBridge", "SleeveCore", "SleeveRecorder", "SleeveStore", "SleeveTestSupport",
      ],
      swiftSettings: strict
    ),
    .testTarget(
      name: "SleeveHistoryTests",
      dependencies: ["SleeveHistory", "SleeveStore", "SleeveTestSupport", "sleeve"],
      swiftSettings: strict
    ),
    .testTarget(
      name: "SleeveStoreTests",
      dependencies: ["SleeveStore", "SleeveTestSupport"],
      swiftSettings: strict
    ),
  ],
  swiftLanguageModes: [.v6]
)
