// What the daemon's scenario tests need: a private session bus, `haptics daemon` on it, and a
// D-Bus client (GDBus from python3-gi, a real client library) that runs a scenario of calls on
// one or more connections and reports every answer, error name and signal as JSON.
import BenchmarkSupport
import Foundation
import HapticsTestSupport
import Testing

/// The system Python with GObject introspection (python3-gi); a pyenv `python3` lacks it.
let systemPython = "/usr/bin/python3"

/// Why the daemon tests cannot run here, or nil when they can.
let daemonTestsUnavailable: String? = {
    for tool in ["/usr/bin/dbus-daemon", systemPython] where !FileManager.default.isExecutableFile(atPath: tool) {
        return "\(tool) is missing (scripts/install-dependencies.sh installs it)"
    }
    let check = "import gi; gi.require_version('Gio', '2.0'); from gi.repository import Gio"
    guard let probe = try? ChildProcess([systemPython, "-c", check], environment: nil) else { return "python3 does not run" }
    return probe.wait().status == 0 ? nil : "python3-gi is missing (scripts/install-dependencies.sh installs it)"
}()

/// The built-in theme's source in the package (`Themes/default.json`).
let builtInThemeFile: String = {
    var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while folder.path != "/" && !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
        folder = folder.deletingLastPathComponent()
    }
    return folder.appendingPathComponent("Themes/default.json").path
}()

/// What a skipped daemon test says.
let daemonTestsSkipReason: Comment = "needs dbus-daemon and python3-gi (scripts/install-dependencies.sh installs them)"

/// A private session bus (``SessionBus``) with what the scenario tests add: the toolkit's own
/// theme, a scratch home, `haptics daemon` on the bus and the GDBus client. Its properties never
/// change after `init`, so tasks may share it.
final class PrivateSessionBus: @unchecked Sendable {
    let bus: SessionBus
    var folder: TemporaryFolder { bus.folder }
    var address: String { bus.address }

    init() throws {
        bus = try SessionBus()
    }

    /// An environment for processes on this bus: no settings of the user's (GSettings in
    /// memory, a scratch home), and the toolkit's own theme (the installed feedbackd theme's
    /// Led and missing sounds are logged at start).
    var environment: [String: String] {
        bus.environment.merging(["HOME": folder.path, "XDG_CACHE_HOME": folder.path("cache"), "FEEDBACK_THEME": builtInThemeFile]) { $1 }
    }

    /// Starts `haptics daemon ARGUMENTS` on the bus and waits until it owns the name.
    func startDaemon(_ arguments: [String] = ["--device", "null"], extraEnvironment: [String: String] = [:]) throws -> BackgroundHaptics {
        let daemon = try BackgroundHaptics(
            ["daemon"] + arguments, in: folder.url, environment: environment.merging(extraEnvironment) { $1 })
        try waitForOwner()
        return daemon
    }

    /// Waits until someone owns `org.sigxcpu.Feedback`.
    func waitForOwner() throws {
        let result = try client([["op": "wait_name", "timeout": 20]])
        try #require(result.results.first?["owned"] as? Bool == true, "the daemon did not own org.sigxcpu.Feedback: \(result.results)")
    }

    /// The owner's unique name, or nil.
    func owner() throws -> String? {
        try client([["op": "owner"]]).results.first?["owner"] as? String
    }

    /// Runs a scenario (see `FeedbackClientScript`) and returns what it saw.
    func client(_ steps: [[String: Any]]) throws -> ClientRun {
        let script = folder.file("client.py")
        if !FileManager.default.fileExists(atPath: script.path) {
            try FeedbackClientScript.source.write(to: script, atomically: true, encoding: .utf8)
        }
        let run = "client-\(UUID().uuidString)"
        let stdin = try folder.write("\(run).in", String(decoding: try JSONSerialization.data(withJSONObject: steps), as: UTF8.self))
        let stdout = folder.file("\(run).out")
        let process = try ChildProcess(
            [systemPython, script.path, address], environment: environment, standardInput: .file(stdin), standardOutput: .file(stdout),
            standardError: .file(folder.file("\(run).log")))
        // A scenario's steps wait 20 s at most each; a client that hangs fails the test.
        try #require(process.wait(timeout: .seconds(120)) != nil, "the client did not finish: \(steps)")
        let data = try Data(contentsOf: stdout)
        let object = try #require(
            try JSONSerialization.jsonObject(with: data) as? [String: Any],
            "the client printed \(String(decoding: data, as: UTF8.self))")
        return ClientRun(
            results: object["results"] as? [[String: Any]] ?? [],
            signals: object["signals"] as? [[String: Any]] ?? [])
    }
}

/// What a client scenario saw: one result per step, and every signal from the service.
struct ClientRun: @unchecked Sendable {  // read-only JSON values
    var results: [[String: Any]]
    var signals: [[String: Any]]

    /// `FeedbackEnded` signals as [id, reason] in the order connection "a" (the default) saw them.
    var ended: [[UInt32]] { ended(on: "a") }

    /// `FeedbackEnded` signals as [id, reason] in the order one connection saw them.
    func ended(on connection: String) -> [[UInt32]] {
        signals.filter { $0["member"] as? String == "FeedbackEnded" && $0["connection"] as? String == connection }.compactMap { signal in
            (signal["args"] as? [NSNumber]).map { $0.map(\.uint32Value) }
        }
    }

    /// The id a `trigger` step answered.
    func id(_ step: Int) -> UInt32? { (results[step]["value"] as? NSNumber)?.uint32Value }

    /// The D-Bus error name a step got, if any.
    func error(_ step: Int) -> String? { results[step]["error"] as? String }
}

/// The client: GDBus connections of its own to the bus (each a client the daemon sees apart),
/// reading a JSON list of steps on stdin and printing {"results": […], "signals": […]}.
enum FeedbackClientScript {
    static let source = #"""
        import json, sys, time
        import gi
        gi.require_version('Gio', '2.0')
        from gi.repository import Gio, GLib

        address = sys.argv[1]
        steps = json.load(sys.stdin)
        NAME, PATH, IFACE = 'org.sigxcpu.Feedback', '/org/sigxcpu/Feedback', 'org.sigxcpu.Feedback'
        connections, signals, results = {}, [], []
        context = GLib.MainContext.default()

        def connection(label):
            if label not in connections:
                c = Gio.DBusConnection.new_for_address_sync(
                    address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)
                def on_signal(conn, sender, path, iface, member, params, *rest):
                    signals.append({'connection': label, 'member': member, 'args': params.unpack(), 'time': time.monotonic()})
                c.signal_subscribe(None, None, None, PATH, None, Gio.DBusSignalFlags.NONE, on_signal)
                connections[label] = c
            return connections[label]

        def call(label, iface, method, args, reply='()'):
            try:
                value = connection(label).call_sync(NAME, PATH, iface, method, args, GLib.VariantType(reply),
                                                    Gio.DBusCallFlags.NONE, 10000, None)
                value = value.unpack()
                return {'value': value[0] if len(value) == 1 else list(value)}
            except GLib.Error as e:
                name = Gio.DBusError.get_remote_error(e)
                prefix = 'GDBus.Error:%s: ' % name
                message = e.message[len(prefix):] if e.message.startswith(prefix) else e.message
                return {'error': name, 'message': message}

        def hints(spec):
            return {key: GLib.Variant(kind, value) for key, (kind, value) in (spec or {}).items()}

        def pump(until, condition=lambda: False):
            while time.monotonic() < until and not condition():
                context.iteration(False) or time.sleep(0.002)

        def ended(number):
            return [s for s in signals if s['member'] == 'FeedbackEnded' and s['args'][0] == number]

        for step in steps:
            op, label = step['op'], step.get('connection', 'a')
            if op == 'trigger':
                r = call(label, IFACE, 'TriggerFeedback',
                         GLib.Variant('(ssa{sv}i)', (step['app'], step['event'], hints(step.get('hints')), step.get('timeout', -1))), '(u)')
            elif op == 'end':
                r = call(label, IFACE, 'EndFeedback', GLib.Variant('(u)', (step['id'],)))
            elif op == 'raw':
                r = call(label, step['interface'], step['method'], GLib.Variant(step['signature'], tuple(step['args'])), step.get('reply', '()'))
            elif op == 'vibrate':
                r = call(label, IFACE + '.Haptic', 'Vibrate', GLib.Variant('(sa(du))', (step['app'], [tuple(s) for s in step['pattern']])), '(b)')
            elif op == 'get':
                r = call(label, 'org.freedesktop.DBus.Properties', 'Get', GLib.Variant('(ss)', (IFACE, step['property'])), '(v)')
            elif op == 'set':
                r = call(label, 'org.freedesktop.DBus.Properties', 'Set',
                         GLib.Variant('(ssv)', (IFACE, step['property'], GLib.Variant('s', step['value']))))
            elif op == 'introspect':
                r = call(label, 'org.freedesktop.DBus.Introspectable', 'Introspect', None, '(s)')
            elif op == 'wait_ended':
                pump(time.monotonic() + step.get('timeout', 10), lambda: ended(step['id']))
                found = ended(step['id'])
                r = {'reason': found[0]['args'][1] if found else None}
            elif op == 'pump':
                pump(time.monotonic() + step['seconds'])
                r = {}
            elif op == 'close':
                connections.pop(label).close_sync(None)
                r = {}
            elif op in ('wait_name', 'owner'):
                bus = connection('_bus')
                deadline = time.monotonic() + step.get('timeout', 0)
                while True:
                    owned = bus.call_sync('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'NameHasOwner',
                                          GLib.Variant('(s)', (NAME,)), GLib.VariantType('(b)'), 0, 5000, None).unpack()[0]
                    if owned or time.monotonic() >= deadline: break
                    time.sleep(0.02)
                r = {'owned': owned}
                if op == 'owner' and owned:
                    r['owner'] = bus.call_sync('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'GetNameOwner',
                                               GLib.Variant('(s)', (NAME,)), GLib.VariantType('(s)'), 0, 5000, None).unpack()[0]
            else:
                r = {'error': 'unknown step ' + op}
            results.append(r)

        # Signals sent right after the last answer are on their way: collect them too.
        pump(time.monotonic() + 0.05)
        print(json.dumps({'results': results, 'signals': signals}))
        """#
}
