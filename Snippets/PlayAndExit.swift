import Glibc     // exit
import Haptics

// A command-line program that plays feedback and exits: wait until it has been heard.
do {
    try await Haptics.playToEnd(.success)   // returns once the device has played it
    try Haptics.playAndWait(.warning)       // the same, blocking, for code that is not async
    try Haptics.play(.selection)            // fire-and-forget: returns at once (apps that keep running)
} catch {
    print("no haptic feedback: \(error)")   // one line, e.g. on a machine without a device
    exit(1)
}
