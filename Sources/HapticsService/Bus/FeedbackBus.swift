// The thin bus layer: the sd-bus connection (CSDBus) owning `org.sigxcpu.Feedback`, its calls
// handed to the `FeedbackService`, and what the service queues sent as signals. Everything
// here runs on the daemon's thread, the one that polls the connection.
import CSDBus
import FoundationEssentials

/// Why the connection could not be made or failed.
package struct FeedbackBusError: Error, CustomStringConvertible {
    package var description: String
}

/// The daemon's connection to the session bus, serving a ``FeedbackService``.
package final class FeedbackBus {
    private var bus: OpaquePointer?
    private let service: FeedbackService
    private var watches: [String: OpaquePointer] = [:]
    private var vanished: [String] = []

    /// Whether another process took the name (it was started with `--replace`).
    package private(set) var nameLost = false

    /// Connects to the session bus of `DBUS_SESSION_BUS_ADDRESS`, exports feedbackd's
    /// interfaces (the Haptic one when the service has a haptic output) and owns the name,
    /// letting another instance replace it; with `replace`, takes it over.
    package init(service: FeedbackService, replace: Bool) throws(FeedbackBusError) {
        self.service = service
        var callbacks = hsd_callbacks()
        callbacks.context = Unmanaged.passUnretained(self).toOpaque()
        callbacks.trigger = { context, sender, appID, event, hints, timeout, id, message, size in
            let bus = FeedbackBus.from(context)
            let hints = hints!.pointee
            let parsed = FeedbackHints(
                profile: hints.profile.map { String(cString: $0) },
                important: hints.has_important != 0 ? hints.important != 0 : nil,
                soundFile: hints.sound_file.map { String(cString: $0) })
            let sender = String(cString: sender!)
            do throws(FeedbackServiceError) {
                id!.pointee = try bus.service.trigger(
                    appID: String(cString: appID!), event: String(cString: event!), hints: parsed, timeout: timeout,
                    sender: sender)
                bus.watchIfNeeded(sender)
                return Int32(HSD_OK)
            } catch {
                copy(error.description, to: message!, size: size)
                switch error {
                case .invalidArguments: return Int32(HSD_INVALID_ARGS)
                case .limitExceeded: return Int32(HSD_LIMITS_EXCEEDED)
                }
            }
        }
        callbacks.end = { context, _, id in
            FeedbackBus.from(context).service.end(id: id)
        }
        callbacks.get_profile = { context, buffer, size in
            copy(FeedbackBus.from(context).service.level.name, to: buffer!, size: size)
        }
        callbacks.set_profile = { context, profile in
            FeedbackBus.from(context).service.setProfile(String(cString: profile!)) ? 1 : 0
        }
        callbacks.vibrate = { context, _, appID, amplitudes, durations, count in
            let steps = (0..<count).map { (amplitude: amplitudes![$0], milliseconds: durations![$0]) }
            return FeedbackBus.from(context).service.vibrate(appID: String(cString: appID!), steps: steps) ? 1 : 0
        }
        callbacks.client_vanished = { context, name in
            let bus = FeedbackBus.from(context)
            let name = String(cString: name!)
            bus.service.clientVanished(name)
            bus.vanished.append(name)
        }
        callbacks.name_lost = { context in
            FeedbackBus.from(context).nameLost = true
        }
        var message = [CChar](repeating: 0, count: 512)
        guard let bus = hsd_open(&callbacks, replace ? 1 : 0, service.hasHaptics ? 1 : 0, &message, message.count) else {
            throw FeedbackBusError(description: text(of: message))
        }
        self.bus = bus
    }

    deinit { close() }

    private static func from(_ context: UnsafeMutableRawPointer?) -> FeedbackBus {
        Unmanaged<FeedbackBus>.fromOpaque(context!).takeUnretainedValue()
    }

    private func watchIfNeeded(_ sender: String) {
        guard watches[sender] == nil, service.hasFeedbacks(from: sender), let bus else { return }
        if let watch = hsd_watch_name(bus, sender) { watches[sender] = watch }
    }

    /// The connection's descriptor and the events to poll it for.
    package var pollDescriptor: (descriptor: Int32, events: Int16) {
        guard let bus else { return (-1, 0) }
        return (hsd_fd(bus), hsd_events(bus))
    }

    /// Milliseconds until sd-bus must run without I/O; nil when nothing is pending.
    package var timeoutMilliseconds: Int64? {
        guard let bus else { return nil }
        let value = hsd_timeout_ms(bus)
        return value < 0 ? nil : value
    }

    /// Handles everything that has arrived, then sends the service's `FeedbackEnded` signals.
    package func process() throws(FeedbackBusError) {
        guard let bus else { return }
        var message = [CChar](repeating: 0, count: 256)
        while true {
            let result = hsd_process(bus, &message, message.count)
            sendEnded()
            if result < 0 { throw FeedbackBusError(description: text(of: message)) }
            if result == 0 { break }
        }
        for name in vanished {
            if let watch = watches.removeValue(forKey: name) { hsd_unwatch(watch) }
        }
        vanished.removeAll()
    }

    /// Sends the `FeedbackEnded` signals the service has queued, in order.
    package func sendEnded() {
        guard let bus, !service.endedFeedbacks.isEmpty else { return }
        for ended in service.endedFeedbacks {
            _ = hsd_emit_feedback_ended(bus, ended.id, ended.reason.rawValue)
        }
        service.endedFeedbacks.removeAll(keepingCapacity: true)
    }

    /// Announces a `Profile` changed by other means than the property (settings, reload).
    package func profileChanged() {
        guard let bus else { return }
        _ = hsd_emit_profile_changed(bus)
    }

    /// Sends what is queued, then closes the connection (releasing the name).
    package func close() {
        guard let bus else { return }
        for watch in watches.values { hsd_unwatch(watch) }
        watches.removeAll()
        _ = hsd_flush(bus)
        hsd_close(bus)
        self.bus = nil
    }
}

/// The NUL-terminated text in a buffer.
private func text(of buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// Copies a string into a C buffer of `size` bytes, cut to fit, NUL-terminated.
private func copy(_ text: String, to buffer: UnsafeMutablePointer<CChar>, size: Int) {
    guard size > 0 else { return }
    let bytes = Array(text.utf8.prefix(size - 1))
    for (index, byte) in bytes.enumerated() { buffer[index] = CChar(bitPattern: byte) }
    buffer[bytes.count] = 0
}
