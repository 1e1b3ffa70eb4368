import Foundation
import HapticsTestSupport
import Testing

/// feedbackd's own clients, unchanged, against both daemons: Debian's `fbcli` and libfeedback
/// (through GObject introspection, as Python apps use it). What they print and what the daemon
/// signals must be the same for ours as for Debian's feedbackd.
extension ServiceHarness {
    @Suite struct RealClients {
        typealias Reason = FeedbackClient.EndReason

        @Test(arguments: ServiceDaemon.Kind.allCases)
        func fbcliTriggersAnEventAndExitsWhenItEnds(_ kind: ServiceDaemon.Kind) throws {
            let service = try HarnessService(kind)
            let run = try Fbcli.run(["-E", "message-new-instant", "-w", "20"], on: service.bus)
            #expect(run.status == 0, "\(run.output)")
            #expect(run.output.contains("Triggering feedback for event 'message-new-instant'"))
            #expect(!run.output.contains("Watch expired"))
            let ends = try service.client.signals(settle: .milliseconds(200)).filter { $0.member == "FeedbackEnded" }
            #expect(ends.map { $0.args.last } == [.int(Reason.natural.rawValue)])
        }

        @Test(arguments: ServiceDaemon.Kind.allCases)
        func fbcliOfAnUnknownEventEndsAtOnceAsNotFound(_ kind: ServiceDaemon.Kind) throws {
            let service = try HarnessService(kind)
            let run = try Fbcli.run(["-E", "no-such-event", "-w", "20"], on: service.bus)
            #expect(run.status == 0, "\(run.output)")
            let ends = try service.client.signals(settle: .milliseconds(200)).filter { $0.member == "FeedbackEnded" }
            #expect(ends.map { $0.args.last } == [.int(Reason.notFound.rawValue)])
        }

        @Test(arguments: ServiceDaemon.Kind.allCases)
        func fbcliEndsAnEndlessFeedbackOnReturn(_ kind: ServiceDaemon.Kind) throws {
            let service = try HarnessService(kind)
            let fbcli = try Fbcli(["-E", "phone-incoming-call", "-t", "0", "-w", "30"], on: service.bus)
            let started = Wait.until(timeout: .seconds(20)) { fbcli.output.contains("Press <RETURN>") }
            #expect(started, "\(fbcli.output)")
            // Still running well past the event's one play (about 1 s): it is endless.
            #expect(try service.client.waitForSignal("FeedbackEnded", timeout: .milliseconds(2000)) == nil)
            #expect(fbcli.isRunning)
            try fbcli.pressReturn()
            #expect(fbcli.wait() == 0, "\(fbcli.output)")
            #expect(fbcli.output.contains("Ending feedback"))
            let ends = try service.client.signals(settle: .milliseconds(200)).filter { $0.member == "FeedbackEnded" }
            #expect(ends.map { $0.args.last } == [.int(Reason.explicit.rawValue)])
        }

        @Test(arguments: ServiceDaemon.Kind.allCases)
        func fbcliSetsTheProfile(_ kind: ServiceDaemon.Kind) throws {
            let service = try HarnessService(kind)
            let run = try Fbcli.run(["-P", "quiet"], on: service.bus)
            #expect(run.status == 0, "\(run.output)")
            #expect(run.output.contains("Current feedback profile is: 'quiet'"), "\(run.output)")
            #expect(try service.client.profile().values == ["quiet"])
            let again = try Fbcli.run(["-P", "quiet"], on: service.bus)
            #expect(again.output.contains("Profile is already set to quiet"), "\(again.output)")
        }

        @Test(arguments: ServiceDaemon.Kind.allCases)
        func libfeedbackTriggersEndsAndHearsFeedbackEnded(_ kind: ServiceDaemon.Kind) throws {
            let client = try HarnessService(kind).client
            #expect(try client.send(["op": "lfb_init", "app": "org.example.LibfeedbackTests"])["ok"] == .bool(true))

            #expect(try client.send(["op": "lfb_trigger", "name": "unknown", "event": "no-such-event"])["ok"] == .bool(true))
            // LfbEventEndReason: NOT_FOUND = -1, NATURAL = 0, EXPIRED = 1, EXPLICIT = 2.
            #expect(try client.send(["op": "lfb_wait_ended", "name": "unknown"])["ok"] == [-1])

            #expect(try client.send(["op": "lfb_trigger", "name": "once", "event": "message-new-instant"])["ok"] == .bool(true))
            #expect(try client.send(["op": "lfb_wait_ended", "name": "once", "timeout": 20])["ok"] == [0])

            #expect(try client.send(["op": "lfb_trigger", "name": "endless", "event": "phone-incoming-call", "timeout": 0])["ok"] == .bool(true))
            #expect(try client.send(["op": "lfb_end", "name": "endless"])["ok"] == .bool(true))
            #expect(try client.send(["op": "lfb_wait_ended", "name": "endless", "settle": 0.2])["ok"] == [2])
            _ = try client.send(["op": "lfb_uninit"])
        }

        @Test(arguments: ServiceDaemon.Kind.allCases)
        func libfeedbackReadsAndWritesTheProfile(_ kind: ServiceDaemon.Kind) throws {
            let client = try HarnessService(kind).client
            _ = try client.send(["op": "lfb_init", "app": "org.example.LibfeedbackTests"])
            #expect(try client.send(["op": "lfb_get_profile"])["ok"] == "full")
            _ = try client.send(["op": "lfb_set_profile", "profile": "silent"])
            #expect(try client.send(["op": "lfb_get_profile"])["ok"] == "silent")
            #expect(try client.profile().values == ["silent"])
            // At `silent` the comparison theme has nothing: libfeedback hears NOT_FOUND.
            _ = try client.send(["op": "lfb_trigger", "name": "silenced", "event": "message-new-instant"])
            #expect(try client.send(["op": "lfb_wait_ended", "name": "silenced"])["ok"] == [-1])
            _ = try client.send(["op": "lfb_uninit"])
        }
    }
}
