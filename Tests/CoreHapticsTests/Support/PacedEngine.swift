import CoreHaptics
import Foundation
import Haptics
import HapticsTestSupport

/// Core Haptics engines on the tests' fake output (``TestOutput/paced(failAfterFrames:)``).
extension TestOutput {
    /// A native engine playing into this output.
    func nativeEngine() -> HapticEngine {
        HapticEngine(configuration: .init(device: "paced", profile: .wideband)) { _, _, _ in self }
    }

    /// A Core Haptics engine playing into a new paced output.
    static func pacedEngine() -> (engine: CHHapticEngine, output: TestOutput) {
        let output = TestOutput.paced()
        return (CHHapticEngine(hapticEngine: output.nativeEngine()), output)
    }

    /// Runs `body` with every `CHHapticEngine()` it makes playing into this output.
    func run<T>(_ body: () throws -> T) rethrows -> T {
        try HapticOutputSelection.$override.withValue(HapticOutputSelection(device: "paced")) {
            try CHHapticEngine.$nativeEngineFactory.withValue({ self.nativeEngine() }, operation: body)
        }
    }

    /// Runs `body` with every `CHHapticEngine()` it makes playing into this output.
    func run<T>(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T) async rethrows -> T {
        try await HapticOutputSelection.$override.withValue(
            HapticOutputSelection(device: "paced"),
            operation: {
                try await CHHapticEngine.$nativeEngineFactory.withValue({ self.nativeEngine() }, operation: body, isolation: isolation)
            }, isolation: isolation)
    }
}
