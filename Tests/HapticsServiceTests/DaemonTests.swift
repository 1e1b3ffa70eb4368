// `haptics daemon` on a private session bus, driven by a GDBus client: the name, both
// interfaces, feedbackd's answers and end reasons, clients leaving, Profile, replacement and
// the signals that end it.
import Foundation
import HapticsTestSupport
import Testing

@Suite(.serialized, .enabled(if: daemonTestsUnavailable == nil, daemonTestsSkipReason))
struct DaemonTests {
    @Test func exportsBothInterfacesWithFeedbackdsSignatures() async throws {
        let bus = try PrivateSessionBus()
        let daemon = try bus.startDaemon()
        let xml = try #require(try bus.client([["op": "introspect"]]).results.first?["value"] as? String)
        for line in [
            #"<interface name="org.sigxcpu.Feedback">"#, #"<property name="Profile" type="s" access="readwrite">"#,
            #"<method name="TriggerFeedback">"#, #"<arg type="a{sv}" name="hints" direction="in"/>"#,
            #"<arg type="u" name="id" direction="out"/>"#, #"<method name="EndFeedback">"#, #"<signal name="FeedbackEnded">"#,
            #"<interface name="org.sigxcpu.Feedback.Haptic">"#, #"<method name="Vibrate">"#,
            #"<arg type="a(du)" name="pattern" direction="in"/>"#, #"<arg type="b" name="success" direction="out"/>"#,
        ] {
            #expect(xml.contains(line), "introspection lacks \(line)")
        }
        daemon.send(SIGTERM)
        #expect(try await daemon.wait().status == 0)
    }

    @Test func triggerAnswersIncreasingIdsAndUnknownEventsEndNotFoundAtOnce() async throws {
        let bus = try PrivateSessionBus()
        let daemon = try bus.startDaemon()
        let run = try bus.client([
            ["op": "trigger", "app": "org.example.App", "event": "button-pressed"],
            ["op": "trigger", "app": "org.example.App", "event": "no-such-event", "timeout": 0],
            ["op": "wait_ended", "id": 2],
            ["op": "trigger", "app": "org.example.App", "event": "button-pressed"],
            ["op": "wait_ended", "id": 1],
            ["op": "wait_ended", "id": 3],
        ])
        #expect([run.id(0), run.id(1), run.id(3)] == [1, 2, 3])
        #expect(run.results[2]["reason"] as? NSNumber == 0xFFFF_FFFF)
        #expect(run.results[4]["reason"] as? NSNumber == 0, "a one-shot feedback ends naturally")
        #expect(run.results[5]["reason"] as? NSNumber == 0)
        #expect(Set(run.ended.map { $0[0] }).count == run.ended.count, "FeedbackEnded once per id")
        daemon.send(SIGTERM)
        #expect(try await daemon.wait().status == 0)
    }

    @Test func emptyAppIDOrEventAndWrongSignaturesAreInvalidArgs() async throws {
        let bus = try PrivateSessionBus()
        let daemon = try bus.startDaemon()
        let run = try bus.client([
            ["op": "trigger", "app": "", "event": "button-pressed"],
            ["op": "trigger", "app": "org.example.App", "event": ""],
            [
                "op": "raw", "interface": "org.sigxcpu.Feedback", "method": "TriggerFeedback", "signature": "(ssi)",
                "args": ["org.example.App", "button-pressed", -1],
            ],
            // Hints of another type than feedbackd reads are ignored, as feedbackd ignores them.
            ["op": "trigger", "app": "org.example.App", "event": "button-pressed", "hints": ["profile": ["i", 3], "important": ["s", "yes"]]],
        ])
        #expect(run.error(0) == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(run.results[0]["message"] as? String == "Invalid app id ")
        #expect(run.error(1) == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(run.results[1]["message"] as? String == "Invalid event ")
        #expect(run.error(2) == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(run.id(3) == 1, "refused calls take no id")
        daemon.send(SIGTERM)
        let outcome = try await daemon.wait()
        #expect(outcome.status == 0)
        #expect(outcome.stderr.isEmpty, "nothing is logged per call: \(outcome.stderr)")
    }

    @Test func endlessFeedbackEndsExplicitAndTimedOneExpires() async throws {
        let bus = try PrivateSessionBus()
        let daemon = try bus.startDaemon()
        let run = try bus.client([
            ["op": "trigger", "app": "org.example.App", "event": "phone-incoming-call", "timeout": 0],
            ["op": "trigger", "app": "org.example.App", "event": "phone-incoming-call", "timeout": 1],
            ["op": "end", "id": 1],
            ["op": "wait_ended", "id": 1],
            ["op": "wait_ended", "id": 2, "timeout": 20],
            ["op": "end", "id": 2],
            ["op": "end", "id": 99],
        ])
        #expect(run.results[3]["reason"] as? NSNumber == 2, "EndFeedback ends explicit")
        #expect(run.results[4]["reason"] as? NSNumber == 1, "a timeout of 1 s ends expired")
        #expect(run.error(5) == nil && run.error(6) == nil, "ending an ended or unknown id is no error")
        #expect(run.ended == [[1, 2], [2, 1]])
        daemon.send(SIGTERM)
        #expect(try await daemon.wait().status == 0)
    }

    @Test func feedbacksOfAClientThatLeavesTheBusEnd() async throws {
        let bus = try PrivateSessionBus()
        let daemon = try bus.startDaemon()
        let run = try bus.client([
            ["op": "get", "property": "Profile", "connection": "watcher"],
            ["op": "trigger", "app": "org.example.Leaving", "event": "phone-incoming-call", "timeout": 0, "connection": "leaving"],
            ["op": "trigger", "app": "org.example.Staying", "event": "phone-incoming-call", "timeout": 0, "connection": "staying"],
            ["op": "close", "connection": "leaving"],
            ["op": "wait_ended", "id": 1, "connection": "watcher"],
            ["op": "pump", "seconds": 0.2],
            ["op": "end", "id": 2, "connection": "staying"],
            ["op": "wait_ended", "id": 2],
        ])
        #expect(run.results[4]["reason"] as? NSNumber == 2)
        #expect(run.ended(on: "watcher") == [[1, 2], [2, 2]], "the other client's feedback ran on until it ended it")
        let firstEndOf2 = run.signals.firstIndex { ($0["args"] as? [NSNumber])?.first == 2 }
        let endOf1 = run.signals.firstIndex { ($0["args"] as? [NSNumber])?.first == 1 }
        #expect(endOf1 != nil && firstEndOf2 != nil && endOf1! < firstEndOf2!)
        daemon.send(SIGTERM)
        #expect(try await daemon.wait().status == 0)
    }

    @Test func profileIsReadWriteAnnouncedAndUnknownNamesAreIgnored() async throws {
        let bus = try PrivateSessionBus()
        let daemon = try bus.startDaemon()
        let run = try bus.client([
            ["op": "get", "property": "Profile"],
            ["op": "set", "property": "Profile", "value": "quiet"],
            ["op": "get", "property": "Profile"],
            ["op": "set", "property": "Profile", "value": "loud"],
            ["op": "get", "property": "Profile"],
            ["op": "set", "property": "Profile", "value": "silent"],
            ["op": "trigger", "app": "org.example.App", "event": "button-pressed"],
            ["op": "wait_ended", "id": 1],
        ])
        #expect(run.results[0]["value"] as? String == "full")
        #expect(run.error(1) == nil)
        #expect(run.results[2]["value"] as? String == "quiet")
        #expect(run.error(3) == nil, "feedbackd accepts an unknown profile and keeps its level")
        #expect(run.results[4]["value"] as? String == "quiet")
        #expect(run.results[7]["reason"] as? NSNumber == 0xFFFF_FFFF, "at silent the theme has nothing for button-pressed")
        let changes = run.signals.filter { $0["member"] as? String == "PropertiesChanged" }.compactMap { signal -> String? in
            guard let args = signal["args"] as? [Any], let changed = args[1] as? [String: Any] else { return nil }
            return changed["Profile"] as? String
        }
        #expect(changes == ["quiet", "silent"])
        daemon.send(SIGTERM)
        let outcome = try await daemon.wait()
        #expect(outcome.errorLines == ["haptics daemon: invalid profile 'loud' ignored: the profiles are full, quiet and silent"])
    }

    @Test func vibrateAnswersTrueAndTakesMoreThanTenSteps() async throws {
        let bus = try PrivateSessionBus()
        let daemon = try bus.startDaemon()
        let steps = (0..<40).map { [$0 % 2 == 0 ? 0.8 : 0.0, 20] as [Any] }
        let run = try bus.client([
            ["op": "vibrate", "app": "org.example.Game", "pattern": steps],
            ["op": "vibrate", "app": "org.example.Game", "pattern": [[Any]]()],
            ["op": "set", "property": "Profile", "value": "silent"],
            ["op": "vibrate", "app": "org.example.Game", "pattern": steps],
        ])
        #expect(run.results[0]["value"] as? Bool == true)
        #expect(run.results[1]["value"] as? Bool == true, "an empty pattern stops")
        #expect(run.results[3]["value"] as? Bool == false, "below quiet Vibrate is refused")
        daemon.send(SIGTERM)
        #expect(try await daemon.wait().status == 0)
    }

    @Test func sigtermEndsRunningFeedbacksAndWritesTheFadedOutput() async throws {
        let bus = try PrivateSessionBus()
        let output = bus.folder.path("out.wav")
        let daemon = try bus.startDaemon(["--device", "file:'\(output)',wav"])
        let run = try bus.client([
            ["op": "trigger", "app": "org.example.App", "event": "phone-incoming-call", "timeout": 0, "connection": "watcher"],
            ["op": "pump", "seconds": 0.3],
        ])
        #expect(run.id(0) == 1)
        // The watcher has left, so a second client watches the exit's signals.
        daemon.send(SIGTERM)
        let outcome = try await daemon.wait()
        #expect(outcome.status == 0)
        #expect(outcome.exited)
        let wav = try WAVFile(contentsOf: URL(fileURLWithPath: output))
        #expect(wav.data.contains { $0 != 0 }, "the feedback was played into the file")
    }

    @Test func sigtermWhilePlayingSendsFeedbackEndedBeforeTheNameGoes() async throws {
        let bus = try PrivateSessionBus()
        let daemon = try bus.startDaemon()
        let watcher = Task.detached {
            try bus.client([
                ["op": "trigger", "app": "org.example.App", "event": "phone-incoming-call", "timeout": 0],
                ["op": "wait_ended", "id": 1, "timeout": 20],
            ])
        }
        try await Wait.suspendingRequire("the feedback to start", timeout: .seconds(20)) {
            (try? String(contentsOfFile: "/proc/\(daemon.process.pid)/status", encoding: .utf8))
                .map { $0.contains("Threads:") && threadCount($0) > 2 } ?? false
        }
        daemon.send(SIGTERM)
        let run = try await watcher.value
        #expect(run.results[1]["reason"] as? NSNumber == 2)
        #expect(try await daemon.wait().status == 0)
    }

    @Test func sighupReloadsAndTheDaemonKeepsAnswering() async throws {
        let bus = try PrivateSessionBus()
        let daemon = try bus.startDaemon()
        daemon.send(SIGHUP)
        let run = try bus.client([["op": "trigger", "app": "org.example.App", "event": "button-pressed"], ["op": "wait_ended", "id": 1]])
        #expect(run.id(0) == 1)
        #expect(run.results[1]["reason"] as? NSNumber == 0)
        daemon.send(SIGINT)
        let outcome = try await daemon.wait()
        #expect(outcome.status == 0)
        #expect(outcome.stderr.isEmpty)
    }

    @Test func secondDaemonWithoutReplaceExitsWithOneLineNamingReplace() async throws {
        let bus = try PrivateSessionBus()
        let first = try bus.startDaemon()
        let second = try BackgroundHaptics(["daemon", "--device", "null"], in: bus.folder.url, environment: bus.environment)
        let outcome = try await second.wait()
        #expect(outcome.status == 1)
        #expect(
            outcome.errorLines == [
                "haptics daemon: org.sigxcpu.Feedback is owned by another process (feedbackd or another daemon); --replace takes it over"
            ])
        first.send(SIGTERM)
        #expect(try await first.wait().status == 0)
    }

    @Test func replaceTakesTheNameAndTheReplacedDaemonExitsCleanly() async throws {
        let bus = try PrivateSessionBus()
        let first = try bus.startDaemon()
        let firstOwner = try bus.owner()
        let second = try BackgroundHaptics(["daemon", "--replace", "--device", "null"], in: bus.folder.url, environment: bus.environment)
        let outcome = try await first.wait()
        #expect(outcome.status == 0)
        #expect(outcome.errorLines == ["haptics daemon: another process took org.sigxcpu.Feedback (--replace): exiting"])
        let secondOwner = try bus.owner()
        #expect(secondOwner != nil && secondOwner != firstOwner)
        let run = try bus.client([["op": "trigger", "app": "org.example.App", "event": "button-pressed"]])
        #expect(run.id(0) == 1, "the new daemon answers")
        second.send(SIGTERM)
        #expect(try await second.wait().status == 0)
    }

    @Test func aClientPastItsLimitGetsLimitsExceededAndOthersGoOn() async throws {
        let bus = try PrivateSessionBus()
        let daemon = try bus.startDaemon()
        let flood = (0..<70).map { _ in ["op": "trigger", "app": "org.example.Flood", "event": "phone-incoming-call", "timeout": 0] as [String: Any] }
        let run = try bus.client(flood + [["op": "trigger", "app": "org.example.Other", "event": "button-pressed", "connection": "other"]])
        let ids = (0..<70).compactMap { run.id($0) }
        #expect(ids == Array(1...64))
        #expect((64..<70).allSatisfy { run.error($0) == "org.freedesktop.DBus.Error.LimitsExceeded" })
        #expect((run.results[64]["message"] as? String)?.contains("64 feedbacks of this client are running") == true)
        #expect(run.id(70) == 65, "another client is answered")
        daemon.send(SIGTERM)
        #expect(try await daemon.wait().status == 0)
    }

    @Test func idleDaemonDoesNotWakeUp() async throws {
        let bus = try PrivateSessionBus()
        let daemon = try bus.startDaemon()
        let pid = daemon.process.pid
        let before = try contextSwitches(of: pid)
        // What is tested is the absence of wake-ups over a stretch of time: the bus loop polls
        // with no timeout while nothing is pending.
        try await Task.sleep(for: .seconds(1))
        #expect(try contextSwitches(of: pid) == before)
        daemon.send(SIGTERM)
        #expect(try await daemon.wait().status == 0)
    }

    @Test func withoutASessionBusTheDaemonExitsWithOneLine() async throws {
        let folder = try TemporaryFolder()
        let daemon = try BackgroundHaptics(
            ["daemon", "--device", "null"], in: folder.url,
            environment: [
                "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(folder.path("none"))", "XDG_RUNTIME_DIR": folder.path, "HOME": folder.path,
                "FEEDBACK_THEME": builtInThemeFile,
            ])
        let outcome = try await daemon.wait()
        #expect(outcome.status == 1)
        #expect(outcome.errorLines.count == 1)
        #expect(outcome.stderr.hasPrefix("haptics daemon: cannot connect to the session bus"))
    }
}

/// Context switches, voluntary and not, of every thread of a process.
func contextSwitches(of pid: Int32) throws -> Int {
    let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")
    return try tasks.reduce(0) { total, task in
        let status = try String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)
        return total
            + status.split(separator: "\n").filter { $0.contains("ctxt_switches") }.compactMap {
                Int($0.split(separator: ":").last!.trimmingCharacters(in: .whitespaces))
            }.reduce(0, +)
    }
}

/// The `Threads:` count in a /proc status file.
func threadCount(_ status: String) -> Int {
    status.split(separator: "\n").first { $0.hasPrefix("Threads:") }.flatMap { Int($0.dropFirst(8).trimmingCharacters(in: .whitespaces)) } ?? 0
}
