// `haptics daemon`'s life: the theme, settings and engine made, the bus owned, then one thread
// polling three descriptors (the bus, the engine's completions, the signals) with no timeout
// while nothing is pending, so an idle daemon never wakes. SIGTERM and SIGINT end every
// feedback and exit 0; SIGHUP reloads the theme; losing the name to a replacement exits 0.
import CSDBus
import FoundationEssentials
import Glibc
import Haptics
import HapticsSystem

/// How `haptics daemon` was asked to run.
package struct HapticsDaemonOptions: Sendable {
    /// Take the name from a running feedbackd or daemon.
    package var replace = false
    /// The output device (as `haptics play --device`); the environment's or settings' when nil.
    package var device: String?
    /// The actuator profile (as `haptics play --profile`); the settings' when nil.
    package var profile: ActuatorProfile?
    /// A theme file (`--theme`); found as feedbackd finds its theme when nil.
    package var themeFile: String?
    /// The environment (`DBUS_SESSION_BUS_ADDRESS`, `HAPTICS_DEVICE`, `FEEDBACK_THEME`, XDG folders).
    package var environment: [String: String]
    /// After how long without a feedback the device is released.
    package var idleTimeout: Duration = .seconds(5)

    package init(environment: [String: String]) {
        self.environment = environment
    }
}

/// The feedback service's process.
package enum HapticsDaemon {
    /// Runs the service until a signal or a replacement ends it; the exit status (0, or 1
    /// when it could not start or its bus connection failed, after one line on stderr).
    package static func run(_ options: HapticsDaemonOptions) -> Int32 {
        // Before any thread starts, so that every thread inherits the blocked mask and the
        // signals arrive only through the descriptor.
        let signals = hsd_signalfd()
        guard signals >= 0 else {
            log("cannot watch signals: \(Errno.current)")
            return 1
        }
        defer { close(signals) }

        let settings = FeedbackSettings.load(environment: options.environment)
        for problem in settings.problems { log(problem) }
        let theme: FeedbackTheme
        do {
            theme = try loadTheme(options, settings: settings)
        } catch {
            log("\(error)")
            return 1
        }
        for warning in theme.warnings { log(warning) }
        let made = makeFeedbackEngine(
            device: options.device, profile: options.profile, environment: options.environment, idleTimeout: options.idleTimeout)
        for problem in made.problems { log(problem) }
        let inbox = CompletionInbox()
        let output = EngineFeedbackOutput(engine: made.engine, hasHaptics: made.hasHaptics, inbox: inbox)
        let service = FeedbackService(
            theme: theme, settings: settings, output: output,
            now: monotonicSeconds, report: log)
        let bus: FeedbackBus
        do {
            bus = try FeedbackBus(service: service, replace: options.replace)
        } catch {
            log(error.description)
            return 1
        }

        var status: Int32 = 0
        loop: while true {
            let (busDescriptor, busEvents) = bus.pollDescriptor
            var descriptors = [
                pollfd(fd: busDescriptor, events: busEvents, revents: 0),
                pollfd(fd: inbox.descriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: signals, events: Int16(POLLIN), revents: 0),
            ]
            let timeout = pollTimeout(bus: bus.timeoutMilliseconds, deadline: service.nextDeadline)
            let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
            if ready < 0 && errno != EINTR {
                log("poll failed: \(Errno.current)")
                status = 1
                break
            }
            if descriptors[2].revents != 0 {
                while case let number = hsd_read_signal(signals), number != 0 {
                    if number == SIGHUP {
                        if reload(service, options: options) { bus.profileChanged() }
                    } else {
                        break loop
                    }
                }
            }
            if descriptors[1].revents != 0 {
                for token in inbox.take() {
                    output.ended(token: token)
                    service.finished(token: token)
                }
            }
            service.expire()
            do {
                try bus.process()
            } catch {
                log(error.description)
                status = 1
                break
            }
            if bus.nameLost {
                log("another process took org.sigxcpu.Feedback (--replace): exiting")
                break
            }
        }
        // Every feedback ends (explicit), its players stop; the engine fades audio out and
        // sets motors to zero; the signals go out before the name is released.
        service.endAll()
        bus.sendEnded()
        made.engine.stop()
        bus.close()
        return status
    }

    /// The theme `--theme` names, else the one feedbackd would find (by the settings' name).
    private static func loadTheme(_ options: HapticsDaemonOptions, settings: FeedbackSettings) throws -> FeedbackTheme {
        if let file = options.themeFile {
            return try FeedbackTheme(contentsOf: URL(fileURLWithPath: file), environment: options.environment)
        }
        return try FeedbackTheme.load(environment: options.environment, themeName: settings.themeName)
    }

    /// SIGHUP: the settings and the theme read again; a theme that fails keeps the old one.
    /// True when the settings changed the profile.
    private static func reload(_ service: FeedbackService, options: HapticsDaemonOptions) -> Bool {
        let settings = FeedbackSettings.load(environment: options.environment)
        for problem in settings.problems { log(problem) }
        let changed = service.replaceSettings(settings)
        do {
            let theme = try loadTheme(options, settings: settings)
            for warning in theme.warnings { log(warning) }
            service.theme = theme
        } catch {
            log("reloading the theme: \(error); keeping the previous one")
        }
        return changed
    }

    /// poll's timeout in milliseconds: -1 (none) when nothing is pending.
    static func pollTimeout(bus: Int64?, deadline: Double?) -> Int32 {
        var timeout: Int64 = -1
        if let bus { timeout = bus }
        if let deadline {
            let milliseconds = Int64(max(0, ((deadline - monotonicSeconds()) * 1000).rounded(.up)))
            timeout = timeout < 0 ? milliseconds : min(timeout, milliseconds)
        }
        return Int32(clamping: timeout)
    }

    /// Seconds on the monotonic clock.
    static func monotonicSeconds() -> Double {
        Double(SystemClock.nanoseconds) / 1e9
    }

    /// One line on stderr, journal-friendly.
    static func log(_ line: String) {
        StandardError.write("haptics daemon: \(line)\n")
    }
}
