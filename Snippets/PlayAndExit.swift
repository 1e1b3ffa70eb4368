import Haptics

// A command-line program that plays feedback and exits: wait until it has been heard.
func feedback() async throws {
    try await Haptics.play(.success)   // returns once the device has played it
}
try await feedback()
try Haptics.playAndWait(.warning)      // the same, blocking, for code that is not async
try Haptics.play(.selection)           // fire-and-forget: returns at once (apps that keep running)
