// swift-tools-version:6.2
import PackageDescription

/// Settings every Sleeve target shares: Swift 6 language mode and zero warnings.
let strict: [SwiftSetting] = [.treatAllWarnings(as: .error)]

let package = Package(
  name: "Sleeve",
  products: [
    .library(name: "SleeveCore", targets: ["SleeveCore"])
  ],
  targets: [
    .target(name: "SleeveCore", swiftSettings: strict),
    .executableTarget(
      name: "SleeveBench",
      dependencies: ["SleeveCore"],
      swiftSettings: strict
    ),
    .testTarget(
      name: "SleeveCoreTests",
      dependencies: ["SleeveCore"],
      swiftSettings: strict
    ),
  ],
  swiftLanguageModes: [.v6]
)
