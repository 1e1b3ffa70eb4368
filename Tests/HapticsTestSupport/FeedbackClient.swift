import BenchmarkSupport
import Foundation
import Testing

/// A real feedbackd client for tests: `Tests/HapticsServiceTests/Clients/feedback-client.py`,
/// run with Debian's `/usr/bin/python3` on a ``SessionBus``. Method calls go through GLib's
/// GDBus (so a test sees the exact D-Bus error name an app sees), signals are collected per
/// connection, and libfeedback is driven as apps drive it, through GObject introspection.
///
/// The script answers one JSON line per command; ``send(_:timeout:)`` waits for the answer at
/// most `timeout` (the script is killed and the test fails instead of hanging). The typed
/// helpers below cover what the scenarios use.
public final class FeedbackClient {
    /// The answer to a D-Bus method call: its values, or the error's name and message.
    public struct Reply: Sendable, Equatable, CustomStringConvertible {
        public var values: [ClientValue]?
        public var error: String?
        public var message: String?

        /// The reply's first value as an unsigned integer (the id `TriggerFeedback` returns).
        public var id: UInt32? { values?.first?.int.flatMap { UInt32(exactly: $0) } }
        public var description: String { error.map { "\($0): \(message ?? "")" } ?? "\(values ?? [])" }
    }

    /// A signal the client received: its member name and arguments.
    public struct Signal: Sendable, Equatable, CustomStringConvertible {
        public var member: String
        public var args: [ClientValue]
        public init(member: String, args: [ClientValue]) {
            self.member = member
            self.args = args
        }
        public var description: String { "\(member)\(args)" }
    }

    public static let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
    /// feedbackd's end reasons, as sent in `FeedbackEnded` (`u`).
    public enum EndReason: Int, Sendable {
        case notFound = 4_294_967_295
        case natural = 0
        case expired = 1
        case explicit = 2
    }

    /// The bus the client is on, kept as long as the client lives.
    public let bus: SessionBus
    /// What else must live as long as the client (the daemon it talks to), so that a test that
    /// keeps only the client keeps the service.
    public var companions: [AnyObject] = []
    private let process: ChildProcess
    private let input: FileHandle
    private let output: FileHandle
    private var buffer = Data()
    private let scratch: TemporaryFolder

    /// The client script, in the test folder.
    public static let script: URL = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/", !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
            folder = folder.deletingLastPathComponent()
        }
        return folder.appendingPathComponent("Tests/HapticsServiceTests/Clients/feedback-client.py")
    }()

    /// Starts a client on `bus` with one connection, `main`, which records every signal from
    /// `/org/sigxcpu/Feedback`. Cancels the test when Python with libfeedback is missing.
    public init(on bus: SessionBus, environment: [String: String] = [:], sourceLocation: SourceLocation = #_sourceLocation) throws {
        try ServiceTools.require(["python3-gi"], sourceLocation: sourceLocation)
        self.bus = bus
        scratch = try TemporaryFolder(prefix: "haptics-client")
        process = try ChildProcess(
            ["/usr/bin/python3", Self.script.path], environment: bus.environment.merging(environment) { $1 }, standardInput: .pipe,
            standardOutput: .pipe, standardError: .file(scratch.file("stderr")))
        // Both are set for `.pipe`.
        input = process.inputPipe!
        output = process.outputPipe!
    }

    deinit {
        // End of file on its input ends the script; five seconds for its goodbye, then it is killed.
        try? input.close()
        process.stop(signal: 0, timeout: .seconds(5))
    }

    /// Sends one command and returns the script's answer (a JSON object).
    public func send(_ command: [String: ClientValue], timeout: Duration = .seconds(60)) throws -> [String: ClientValue] {
        let line = try JSONEncoder().encode(ClientValue.object(command)) + Data("\n".utf8)
        try input.write(contentsOf: line)
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let answer = buffer[buffer.startIndex..<newline]
                buffer = Data(buffer[(newline + 1)...])
                guard case .object(let object) = try JSONDecoder().decode(ClientValue.self, from: answer) else {
                    throw ServiceTools.Failure(description: "the client answered \(String(decoding: answer, as: UTF8.self))")
                }
                if let exception = object["exception"]?.string { throw ServiceTools.Failure(description: "the client failed: \(exception)") }
                return object
            }
            let left = ContinuousClock.now.duration(to: deadline)
            var descriptor = pollfd(fd: output.fileDescriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = max(0, Int32(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
            guard left > .zero, poll(&descriptor, 1, milliseconds) > 0 else {
                process.send(SIGKILL)
                throw ServiceTools.Failure(description: "the client did not answer \(command["op"]?.string ?? "?") within \(timeout); stderr: \(errorOutput)")
            }
            let chunk = output.availableData
            guard !chunk.isEmpty else { throw ServiceTools.Failure(description: "the client exited; stderr: \(errorOutput)") }
            buffer.append(chunk)
        }
    }

    /// Returns once the client is connected and its signal subscription is in place: a call's
    /// round trip (the bus handles a connection's messages in order, so the subscription sent
    /// before it is active after it). Until then another client's feedback could end unseen.
    public func ready() throws {
        guard try send(["op": "has_owner"])["ok"] != nil else { throw ServiceTools.Failure(description: "the client is not on the bus: \(errorOutput)") }
    }

    /// What the script wrote on its standard error.
    public var errorOutput: String { (try? String(contentsOf: scratch.file("stderr"), encoding: .utf8)) ?? "" }

    // MARK: Calls

    /// Calls `method` (`interface.Member`) on `/org/sigxcpu/Feedback` with `arguments` in
    /// GVariant text form of type `signature` (e.g. `(ssa{sv}i)`), from connection `conn`.
    public func call(_ method: String, _ signature: String?, _ arguments: String, conn: String = "main") throws -> Reply {
        var command: [String: ClientValue] = ["op": "call", "method": .string(method), "args": .string(arguments), "conn": .string(conn)]
        if let signature { command["signature"] = .string(signature) }
        let answer = try send(command)
        return Reply(values: answer["ok"]?.array, error: answer["error"]?.string, message: answer["message"]?.string)
    }

    /// `TriggerFeedback(app, event, hints, timeout)`; `hints` in GVariant text (`{}` for none).
    public func trigger(app: String = "org.example.Tests", _ event: String, hints: String = "@a{sv} {}", timeout: Int32 = -1, conn: String = "main") throws
        -> Reply
    {
        try call("org.sigxcpu.Feedback.TriggerFeedback", "(ssa{sv}i)", "(\(Self.literal(app)), \(Self.literal(event)), \(hints), \(timeout))", conn: conn)
    }

    /// `EndFeedback(id)`.
    public func end(_ id: UInt32, conn: String = "main") throws -> Reply {
        try call("org.sigxcpu.Feedback.EndFeedback", "(u)", "(uint32 \(id),)", conn: conn)
    }

    /// The `Profile` property, read with `org.freedesktop.DBus.Properties.Get`.
    public func profile() throws -> Reply {
        try call("org.freedesktop.DBus.Properties.Get", "(ss)", "('org.sigxcpu.Feedback', 'Profile')")
    }

    /// Writes `Profile` with `org.freedesktop.DBus.Properties.Set`; `value` in GVariant text.
    public func setProfile(_ value: String) throws -> Reply {
        try call("org.freedesktop.DBus.Properties.Set", "(ssv)", "('org.sigxcpu.Feedback', 'Profile', <\(value)>)")
    }

    /// Waits until connection `conn` has received `member` whose first arguments are `args`;
    /// returns its arguments, or nil after `timeout`.
    public func waitForSignal(_ member: String, args: [ClientValue] = [], timeout: Duration = .seconds(10), conn: String = "main") throws -> [ClientValue]? {
        let answer = try send([
            "op": "wait_signal", "member": .string(member), "args": .array(args), "conn": .string(conn), "timeout": .double(Wait.seconds(timeout)),
        ])
        return answer["ok"]?.array
    }

    /// Waits for `FeedbackEnded(id, _)` and returns the reason, or nil after `timeout`.
    public func waitForEnd(of id: UInt32, timeout: Duration = .seconds(10), conn: String = "main") throws -> Int? {
        try waitForSignal("FeedbackEnded", args: [.int(Int(id))], timeout: timeout, conn: conn)?.last?.int
    }

    /// Every signal connection `conn` received, after letting `settle` pass for late ones;
    /// the record is cleared unless `clear` is false.
    public func signals(settle: Duration = .zero, clear: Bool = true, conn: String = "main") throws -> [Signal] {
        let answer = try send(["op": "signals", "settle": .double(Wait.seconds(settle)), "clear": .bool(clear), "conn": .string(conn)])
        return (answer["ok"]?.array ?? []).compactMap {
            guard let member = $0["member"]?.string, let args = $0["args"]?.array else { return nil }
            return Signal(member: member, args: args)
        }
    }

    /// Opens another connection, `name` (another client on the bus); returns its unique name.
    @discardableResult
    public func connect(_ name: String, watch: Bool = true) throws -> String? {
        try send(["op": "connect", "conn": .string(name), "watch": .bool(watch)])["ok"]?.string
    }

    /// Closes connection `name`: that client leaves the bus.
    public func close(_ name: String) throws {
        _ = try send(["op": "close", "conn": .string(name)])
    }

    /// A string as a GVariant text literal.
    public static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}

/// A JSON value, for the client's answers: compared with `==` in tests and printed readably.
public enum ClientValue: Sendable, Equatable, Codable, CustomStringConvertible, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral
{
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([ClientValue])
    case object([String: ClientValue])

    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: ClientValue...) { self = .array(elements) }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([ClientValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: ClientValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    public var int: Int? { if case .int(let value) = self { value } else { nil } }
    public var string: String? { if case .string(let value) = self { value } else { nil } }
    public var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
    public var array: [ClientValue]? { if case .array(let value) = self { value } else { nil } }
    public var object: [String: ClientValue]? { if case .object(let value) = self { value } else { nil } }
    public var double: Double? {
        switch self {
        case .double(let value): value
        case .int(let value): Double(value)
        default: nil
        }
    }
    public subscript(key: String) -> ClientValue? { object?[key] }

    public var description: String {
        switch self {
        case .null: "null"
        case .bool(let value): "\(value)"
        case .int(let value): "\(value)"
        case .double(let value): "\(value)"
        case .string(let value): "'\(value)'"
        case .array(let value): "(" + value.map(\.description).joined(separator: ", ") + ")"
        case .object(let value): "{" + value.sorted { $0.key < $1.key }.map { "'\($0.key)': \($0.value)" }.joined(separator: ", ") + "}"
        }
    }
}
