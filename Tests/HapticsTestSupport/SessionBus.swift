import BenchmarkSupport
import Foundation
import Testing

/// A private D-Bus session bus for one test: `dbus-daemon --session`-like, listening on a socket
/// in a scratch folder of its own, with its own folder of activatable services, ended (with
/// everything it activated) when the value is released or ``stop()`` is called.
///
/// Nothing a test does here meets the user's session bus: services started for the test get
/// ``environment`` (this bus's address, GSettings in memory so no dconf is written, and
/// `XDG_CONFIG_HOME`/`XDG_DATA_HOME` in the scratch folder so no user's theme or settings are
/// read). A machine without `dbus-daemon` cancels the test with a message naming the package.
public final class SessionBus: @unchecked Sendable {
    /// The well-known name feedbackd and `haptics daemon` own.
    public static let feedbackName = "org.sigxcpu.Feedback"

    /// The bus's address (`unix:path=…`), for `DBUS_SESSION_BUS_ADDRESS`.
    public let address: String
    /// The scratch folder: the socket, the configuration, `services/`, `config/`, `data/`.
    public let folder: TemporaryFolder
    private let process: ChildProcess
    private let lock = NSLock()
    private var stopped = false

    /// What every program on this bus runs with: the caller's environment, this bus, GSettings in
    /// memory and XDG folders inside the scratch folder.
    public var environment: [String: String] { Self.environment(address: address, folder: folder) }

    private static func environment(address: String, folder: TemporaryFolder) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        environment["GSETTINGS_BACKEND"] = "memory"
        environment["XDG_CONFIG_HOME"] = folder.path("config")
        environment["XDG_DATA_HOME"] = folder.path("data")
        environment["XDG_RUNTIME_DIR"] = folder.path("runtime")
        environment.removeValue(forKey: "FEEDBACK_THEME")
        environment.removeValue(forKey: "HAPTICS_DEVICE")
        return environment
    }

    /// Starts the bus; returns once it accepts connections.
    public init(sourceLocation: SourceLocation = #_sourceLocation) throws {
        try ServiceTools.require(["dbus-daemon", "dbus-send"], sourceLocation: sourceLocation)
        folder = try TemporaryFolder(prefix: "haptics-bus")
        let socket = folder.path("bus")
        address = "unix:path=\(socket)"
        for name in ["services", "config", "data", "runtime"] {
            try FileManager.default.createDirectory(at: folder.file(name), withIntermediateDirectories: true)
        }
        chmod(folder.path("runtime"), 0o700)
        // The session bus's own policy and limits (dbus's session.conf), but listening only on
        // this socket and activating only this folder's services. The reply limit matters to
        // the flood test: the stock 128 pending calls per connection would answer for us.
        let configuration = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:path=\(socket)</listen>
              <auth>EXTERNAL</auth>
              <servicedir>\(folder.path("services"))</servicedir>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
              <limit name="max_incoming_bytes">1000000000</limit>
              <limit name="max_outgoing_bytes">1000000000</limit>
              <limit name="max_message_size">1000000000</limit>
              <limit name="service_start_timeout">30000</limit>
              <limit name="max_replies_per_connection">50000</limit>
              <limit name="max_match_rules_per_connection">50000</limit>
              <limit name="reply_timeout">60000</limit>
            </busconfig>
            """
        let configurationFile = try folder.write("bus.conf", configuration)
        let dbusDaemon = ServiceTools.path(of: "dbus-daemon") ?? "/usr/bin/dbus-daemon"
        // No parent-death signal: the kernel sends it when the *thread* that spawned the child
        // ends, and the test's threads are a pool's, which end when idle.
        process = try ChildProcess(
            [dbusDaemon, "--nofork", "--config-file=\(configurationFile.path)"], environment: Self.environment(address: address, folder: folder),
            standardOutput: .file(folder.file("bus.out")), standardError: .file(folder.file("bus.log")))
        let accepted = Wait.until(timeout: .seconds(20), interval: .milliseconds(10)) {
            guard process.isRunning, FileManager.default.fileExists(atPath: socket) else { return !process.isRunning }
            return (try? self.send(["/org/freedesktop/DBus", "org.freedesktop.DBus.GetId"])) != nil
        }
        guard accepted, process.isRunning else {
            stop()
            throw ServiceTools.Failure(description: "dbus-daemon did not start: \(log)")
        }
    }

    deinit { stop() }

    /// What dbus-daemon wrote on its standard error.
    public var log: String { (try? String(contentsOf: folder.file("bus.log"), encoding: .utf8)) ?? "" }

    /// Ends the bus (and so every connection on it; activated services see their bus vanish).
    public func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        process.stop(timeout: .seconds(5))
    }

    /// Writes an activation file, `services/NAME.service`, so that the bus starts `arguments`
    /// (with `environment` added to its own) when a client calls `name` and no one owns it.
    public func installActivatableService(name: String, arguments: [String], environment: [String: String] = [:]) throws {
        // The command goes into a script the activation file runs: the Exec line's own quoting
        // rules are not the shell's, and device names such as `file:'PATH',wav` need quotes.
        let assignments = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let command = (["exec", "/usr/bin/env"] + assignments + arguments).map(Self.quoted).joined(separator: " ")
        let script = try folder.write("services/\(name).sh", "#!/bin/sh\n\(command)\n")
        chmod(script.path, 0o755)
        try folder.write("services/\(name).service", "[D-BUS Service]\nName=\(name)\nExec=\(script.path)\n")
    }

    /// Whether someone owns `name` on this bus.
    public func hasOwner(_ name: String = feedbackName) -> Bool {
        (try? send(["/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner", "string:\(name)"]))?.contains("boolean true") ?? false
    }

    /// The process id of `name`'s owner, or nil when no one owns it.
    public func ownerProcessID(_ name: String = feedbackName) -> pid_t? {
        guard let reply = try? send(["/org/freedesktop/DBus", "org.freedesktop.DBus.GetConnectionUnixProcessID", "string:\(name)"]),
            let number = reply.split(separator: " ").last.flatMap({ Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
        else { return nil }
        return number
    }

    /// Waits until `name` has an owner (true) or `timeout` passed (false).
    public func waitForOwner(_ name: String = feedbackName, timeout: Duration = .seconds(20)) -> Bool {
        Wait.until(timeout: timeout, interval: .milliseconds(10)) { hasOwner(name) }
    }

    /// Runs `dbus-send --print-reply` to the bus itself; returns its output, throws on failure.
    private func send(_ arguments: [String]) throws -> String {
        let result = try shell(
            (["dbus-send", "--bus=\(address)", "--print-reply", "--dest=org.freedesktop.DBus"] + arguments).map(Self.quoted).joined(separator: " "))
        guard result.status == 0 else { throw ServiceTools.Failure(description: result.output) }
        return result.output
    }

    /// `text` quoted for a POSIX shell.
    public static func quoted(_ text: String) -> String {
        text == "exec" || (text.allSatisfy({ $0.isLetter || $0.isNumber || "-_./=:,@".contains($0) }) && !text.isEmpty)
            ? text : "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}

/// The programs the service tests run, found on the PATH, and the one way a test says which
/// are missing.
public enum ServiceTools {
    /// A service or client did not do what the test needed of it.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    /// The Debian package that brings each program, for the skip message.
    static let packages: [String: String] = [
        "dbus-daemon": "dbus-daemon", "dbus-send": "dbus-bin", "fbcli": "feedbackd", "/usr/libexec/feedbackd": "feedbackd",
        "pulseaudio": "pulseaudio", "python3-gi": "python3-gi gir1.2-lfb-0.0", "setpriv": "util-linux",
    ]

    /// The full path of `program` (itself when it is a path), or nil when it is not installed.
    public static func path(of program: String) -> String? { executable(program) }

    /// Whether `/usr/bin/python3` can import GObject introspection with libfeedback's typelib.
    public static let hasPythonLibfeedback: Bool = {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else { return false }
        let check = "import gi; gi.require_version('Lfb', '0.0'); gi.require_version('Gio', '2.0'); from gi.repository import Lfb, Gio"
        return (try? shell("/usr/bin/python3 -c \"\(check)\""))?.status == 0
    }()

    /// Cancels the current test (reported as skipped) naming the packages to install when any
    /// of `programs` is missing; `python3-gi` stands for Python with libfeedback's typelib.
    public static func require(_ programs: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let missing = programs.filter { $0 == "python3-gi" ? !hasPythonLibfeedback : path(of: $0) == nil }
        guard !missing.isEmpty else { return }
        let packages = Set(missing.map { Self.packages[$0] ?? $0 }).sorted().joined(separator: " ")
        try Test.cancel("needs \(missing.joined(separator: ", ")) (Debian: apt-get install \(packages)), skipping", sourceLocation: sourceLocation)
    }
}
