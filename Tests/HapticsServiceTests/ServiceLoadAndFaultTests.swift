import Foundation
import HapticsTestSupport
import Testing

/// `haptics daemon` under load and faults: many clients at once, a client that floods it, the
/// daemon killed and activated again by the bus, hints and theme files fuzzed. Each is bounded in
/// count and time; the long ones carry the `serviceLoad` tag.
extension ServiceHarness {
    @Suite struct ServiceLoadAndFaults {
        typealias Reason = FeedbackClient.EndReason
        static let theme = FeedbackClient.script.deletingLastPathComponent().appendingPathComponent("playback-theme.json")

        @Test(.tags(.serviceLoad))
        func twentyClientsAtAHundredTriggersASecondAreAllAnsweredAndEndedOnceInFlatMemory() throws {
            let service = try HarnessService(.haptics, theme: Self.theme)
            let answer = try service.client.send(
                [
                    "op": "load", "clients": 20, "rate": 100, "seconds": 10, "app": "org.example.Load", "event": "button-pressed",
                    "pid": .int(Int(service.daemon.pid)),
                ], timeout: .seconds(180))
            let load = try #require(answer["ok"])
            #expect(load["sent"] == 20_000)
            #expect(load["answered"] == 20_000)
            // Every call answered: with an id, or (when the daemon fell behind a client's 100 a
            // second by 64 feedbacks, its per-client limit) with LimitsExceeded, nothing else.
            let ids = try #require(load["ids"]?.int)
            let refused = load["errors"]?.object?["org.freedesktop.DBus.Error.LimitsExceeded"]?.int ?? 0
            #expect(ids + refused == 20_000, "\(load)")
            #expect(load["distinct_ids"]?.int == ids)
            #expect((load["errors"]?.object ?? [:]).keys.allSatisfy { $0 == "org.freedesktop.DBus.Error.LimitsExceeded" }, "\(load)")
            #expect(refused < 200, "\(refused) of 20,000 refused")
            #expect(load["ended_once"]?.int == ids, "\(load)")
            #expect(load["ended_never"] == 0 && load["ended_twice_or_more"] == 0 && load["ended_unknown_ids"] == 0, "\(load)")
            // Memory flat: the first seconds fill the engine's buffers, the bus's queues and the
            // allocator's arenas (one per busy thread, in steps); over the last third of the run,
            // about 6,000 more feedbacks, the daemon's RSS grows by less than 2 MiB (a leak of
            // 350 bytes a feedback would show).
            let rss = (load["rss_kib"]?.array ?? []).compactMap(\.int)
            try #require(rss.count >= 8, "RSS samples \(rss)")
            let lastThird = rss[rss.count * 2 / 3]
            #expect(rss.last! - lastThird < 2048, "RSS over the run (KiB): \(rss)")
            #expect(service.daemon.isRunning)
            print("service load: \(ids) feedbacks, \(refused) LimitsExceeded, RSS KiB per second \(rss)")
        }

        @Test(.tags(.serviceLoad))
        func aClientFloodingEndlessFeedbacksIsBoundedWithAClearErrorAndOthersAreStillServed() throws {
            let service = try HarnessService(.haptics, theme: Self.theme)
            let client = service.client
            try client.connect("flooder", watch: false)
            // 100,000 calls take the Python client a minute and a half on a loaded machine; the
            // suite sends 20,000 (the limit is 64), `HAPTICS_FLOOD_CALLS=100000` the issue's count.
            let calls = ProcessInfo.processInfo.environment["HAPTICS_FLOOD_CALLS"].flatMap { Int($0) } ?? 20_000
            let answer = try client.send(
                [
                    "op": "flood", "conn": "flooder", "app": "org.example.Flood", "event": "phone-incoming-call", "timeout": 0, "count": .int(calls),
                    "window": 1000,
                ], timeout: .seconds(300))
            let flood = try #require(answer["ok"])
            #expect(flood["answered"]?.int == calls, "\(flood)")
            let accepted = try #require(flood["ids"]?.int)
            let errors = flood["errors"]?.object ?? [:]
            // Bounded: most calls refused, every refusal with one D-Bus error naming the limit
            // (not a timeout, a lost connection or the bus's own limits).
            #expect(accepted > 0 && accepted < calls, "\(flood)")
            #expect(errors.count == 1, "\(errors)")
            let name = try #require(errors.keys.first)
            #expect(name != "org.freedesktop.DBus.Error.NoReply" && name != "org.freedesktop.DBus.Error.Timeout", "\(name)")
            let message = flood["first_error"]?.string ?? ""
            #expect(!message.isEmpty && !message.contains("\n") && !message.contains("pending replies"), "\(message)")
            print("service flood: \(calls) calls, \(accepted) endless feedbacks accepted, \(errors[name] ?? 0) × \(name): \(message)")

            // Another client is still served, and the flooder's feedbacks all end when it leaves.
            let other = try #require(try client.trigger("button-pressed").id)
            #expect(try client.waitForEnd(of: other) == Reason.natural.rawValue)
            _ = try client.signals()
            try client.close("flooder")
            let ended = try Wait.until(timeout: .seconds(60), interval: .milliseconds(200)) {
                try client.signals(clear: false).filter { $0.member == "FeedbackEnded" }.count >= accepted
            }
            #expect(ended)
            let ends = try client.signals(settle: .milliseconds(500)).filter { $0.member == "FeedbackEnded" }
            #expect(ends.count == accepted)
            #expect(Set(ends.compactMap { $0.args.first?.int }).count == accepted)
            #expect(service.daemon.isRunning)
        }

        @Test func aKilledDaemonIsActivatedAgainByTheNextCall() throws {
            let bus = try SessionBus()
            let executable = try #require(HapticsProcess.executable)
            try bus.installActivatableService(
                name: SessionBus.feedbackName,
                arguments: [executable.path, "daemon", "--device", "file:'\(bus.folder.path("activated.wav"))',wav"],
                environment: ["FEEDBACK_THEME": Self.theme.path])
            let client = try FeedbackClient(on: bus)
            #expect(!bus.hasOwner())
            let activated = try client.trigger("button-pressed")
            let first = try #require(activated.id, "the bus did not activate the daemon: \(activated); \(bus.log)")
            #expect(try client.waitForEnd(of: first) == Reason.natural.rawValue)
            let pid = try #require(bus.ownerProcessID())
            let endless = try #require(try client.trigger("phone-incoming-call", timeout: 0).id)
            kill(pid, SIGKILL)
            #expect(Wait.until(timeout: .seconds(10)) { !bus.hasOwner() })
            // A daemon killed outright sends nothing; the next call starts a new one.
            let again = try #require(try client.trigger("button-pressed").id, "the bus did not activate the daemon again")
            #expect(try client.waitForEnd(of: again) == Reason.natural.rawValue)
            let newPID = try #require(bus.ownerProcessID())
            #expect(newPID != pid)
            _ = endless
            kill(newPID, SIGTERM)
            #expect(Wait.until(timeout: .seconds(10)) { !bus.hasOwner() })
        }

        @Test func fuzzedHintsGetAnIDOrInvalidArgsAndTheDaemonKeepsRunning() throws {
            let service = try HarnessService(.haptics, theme: Self.theme)
            let client = service.client
            let run = FuzzRun(reader: "service-hints", defaultSeconds: 3, defaultSeed: 25)
            var random = JSONMutator.SeededGenerator(seed: run.seed)
            let keys = ["profile", "important", "sound-file", "x", "", "profile\u{1}", String(repeating: "k", count: 300)]
            let values = [
                "<'full'>", "<'quiet'>", "<'silent'>", "<''>", "<'\(String(repeating: "é", count: 2000))'>", "<true>", "<false>", "<42>",
                "<int64 -9223372036854775808>", "<3.5>", "<uint32 4294967295>", "<<'full'>>", "<@as ['full', 'quiet']>", "<@a{sv} {}>",
                "<objectpath '/'>", "<byte 0xff>", "<('full', 1)>", "<'/nonexistent/sound.oga'>", "<'/dev/zero'>", "<'\(Self.theme.path)'>",
            ]
            let signatures = [
                ("(ssa{sv}i)", nil), ("(ssa{ss}i)", "{'profile': 'full'}"), ("(ssa{sb}i)", "{'important': true}"), ("(ssava{sv}i)", "[<1>], {}"),
            ]
            var outcomes: [String: Int] = [:]
            let deadline = run.deadline
            var calls = 0
            while ContinuousClock.now < deadline || calls < 20 {
                calls += 1
                let (signature, fixed) = signatures[Int.random(in: 0..<signatures.count, using: &random)]
                let hints =
                    fixed
                    ?? "{"
                    + (0..<Int.random(in: 0...4, using: &random)).map { _ in
                        "\(FeedbackClient.literal(keys.randomElement(using: &random)!)): \(values.randomElement(using: &random)!)"
                    }.joined(separator: ", ") + "}"
                let arguments =
                    "('org.example.Fuzz', 'button-pressed', \(signature == "(ssa{sv}i)" && hints == "{}" ? "@a{sv} {}" : hints), \(Int32.random(in: -3...2, using: &random)))"
                let reply = try client.call("org.sigxcpu.Feedback.TriggerFeedback", signature, arguments)
                if let id = reply.id {
                    outcomes["id", default: 0] += 1
                    _ = try client.end(id)
                } else {
                    #expect(reply.error == FeedbackClient.invalidArgs, "\(signature) \(hints): \(reply)")
                    #expect(!(reply.message ?? "").isEmpty && !(reply.message ?? "").contains("\n"), "\(reply)")
                    outcomes[reply.error ?? "none", default: 0] += 1
                }
                if calls >= 2000 { break }
            }
            #expect(service.daemon.isRunning, "\(service.daemon.errorOutput)")
            let after = try #require(try client.trigger("button-pressed").id)
            #expect(try client.waitForEnd(of: after) == Reason.natural.rawValue)
            print("service hints fuzz: \(calls) calls, \(outcomes)")
        }

        @Test func aBrokenThemeReloadedWithSIGHUPIsReportedAndTheOldOneKeepsPlaying() throws {
            let folder = try TemporaryFolder(prefix: "haptics-theme-fuzz")
            let seed = try String(contentsOf: Self.theme, encoding: .utf8)
            let themeFile = try folder.write("theme.json", seed)
            let service = try HarnessService(.haptics, theme: themeFile)
            let client = service.client
            let run = FuzzRun(reader: "service-theme", defaultSeconds: 4, defaultSeed: 2525)
            var reloads = 0
            var reported = 0
            let outcome = run.mutate(
                seeds: [seed], words: ["\"parent-name\"", "\"VibraPattern\"", "\"Pattern\"", "\"magnitudes\"", "[]", "{}", "null", "1e999", "-1"]
            ) { bytes, label in
                reloads += 1
                let linesBefore = service.daemon.errorLines.count
                try? Data(bytes).write(to: themeFile)
                service.daemon.send(SIGHUP)
                guard let id = try? client.trigger("button-pressed").id else {
                    Issue.record("\(label): the daemon stopped answering after a theme reload; stderr: \(service.daemon.errorOutput)")
                    return .failed
                }
                _ = try? client.waitForEnd(of: id)
                guard service.daemon.isRunning else {
                    Issue.record("\(label): the daemon exited after a theme reload; stderr: \(service.daemon.errorOutput)")
                    return .failed
                }
                let newLines = service.daemon.errorLines.dropFirst(linesBefore)
                if !newLines.isEmpty {
                    reported += 1
                    // One line per problem, naming the theme file.
                    #expect(newLines.allSatisfy { $0.contains("theme.json") }, "\(label): \(Array(newLines))")
                    return .refused
                }
                return .loaded
            }
            #expect(reloads > 5)
            // The original theme again: the daemon plays it.
            try Data(seed.utf8).write(to: themeFile)
            service.daemon.send(SIGHUP)
            let id = try #require(try client.trigger("button-pressed").id)
            #expect(try client.waitForEnd(of: id) == Reason.natural.rawValue)
            #expect(service.daemon.isRunning)
            print("service theme fuzz: \(reloads) reloads, \(outcome.loaded) loaded, \(reported) reported")
        }
    }
}
