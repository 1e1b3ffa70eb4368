import Dispatch
import Foundation

/// Turns SIGINT/SIGTERM into a callback on a private queue, so playback can fade out and
/// close the device instead of dying mid-sample with a motor or coil still driven.
final class SignalWatcher: @unchecked Sendable {
    private let queue = DispatchQueue(label: "haptics.signals")
    private var sources: [DispatchSourceSignal] = []
    private let lock = NSLock()
    private var handler: (@Sendable () -> Void)?
    private var _received = false

    init(signals: [Int32]) {
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { [weak self] in self?.fire() }
            source.resume()
            sources.append(source)
        }
    }

    /// Calls `handler` when a signal arrives (at once if one already has).
    func onSignal(_ handler: @escaping @Sendable () -> Void) {
        let already = lock.withLock { () -> Bool in
            self.handler = handler
            return _received
        }
        if already { handler() }
    }

    /// Whether a signal arrived.
    var received: Bool { lock.withLock { _received } }

    private func fire() {
        let handler = lock.withLock { () -> (@Sendable () -> Void)? in
            _received = true
            return self.handler
        }
        handler?()
    }
}
