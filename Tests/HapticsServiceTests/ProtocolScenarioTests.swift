import Foundation
import HapticsTestSupport
import Testing

/// feedbackd's D-Bus protocol, each scenario written once and run against both daemons: Debian's
/// feedbackd 0.0.3 (which sets the expectation: every answer, error name and end reason here is
/// what it gives) and `haptics daemon`. Both read the same theme (`comparison-theme.json`).
extension ServiceHarness {
    @Suite struct ProtocolScenarios {
        typealias Reason = FeedbackClient.EndReason

        @Test(arguments: ServiceDaemon.Kind.allCases)
        func anEmptyAppIDOrEventIsInvalidArgsAndTakesNoID(_ kind: ServiceDaemon.Kind) throws {
            let service = try HarnessService(kind)
            let client = service.client
            #expect(try client.trigger(app: "", "message-new-instant").error == FeedbackClient.invalidArgs)
            #expect(try client.trigger(app: "org.example.Tests", "").error == FeedbackClient.invalidArgs)
            #expect(try client.trigger(app: "", "").error == FeedbackClient.invalidArgs)
            // The refused calls took no id: the first feedback is still number 1.
            #expect(try client.trigger("no-such-event").id == 1)
        }

        @Test(arguments: ServiceDaemon.Kind.allCases)
        func hintsThatAreNotAStringToVariantMapAreInvalidArgs(_ kind: ServiceDaemon.Kind) throws {
            let client = try HarnessService(kind).client
            let method = "org.sigxcpu.Feedback.TriggerFeedback"
            for (signature, arguments) in [
                ("(ssa{ss}i)", "('org.example.Tests', 'message-new-instant', {'profile': 'full'}, -1)"),
                ("(ssa{si}i)", "('org.example.Tests', 'message-new-instant', {'important': 1}, -1)"),
                ("(sssi)", "('org.example.Tests', 'message-new-instant', 'profile=full', -1)"),
                ("(ssi)", "('org.example.Tests', 'message-new-instant', -1)"),
                ("(ssa{sv})", "('org.example.Tests', 'message-new-instant', @a{sv} {})"),
                ("(ssa{sv}ii)", "('org.example.Tests', 'message-new-instant', @a{sv} {}, -1, 0)"),
            ] {
                let reply = try client.call(method, signature, arguments)
                #expect(reply.error == FeedbackClient.invalidArgs, "\(signature): \(reply)")
            }
        }

        @Test(arguments: ServiceDaemon.Kind.allCases)
        func hintsOfAnUnexpectedTypeOrNameAreIgnored(_ kind: ServiceDaemon.Kind) throws {
            // feedbackd looks each hint up with its type (`g_variant_dict_lookup`) and skips one
            // of another type, as it skips names it does not know: the feedback plays.
            let client = try HarnessService(kind).client
            for hints in ["{'profile': <42>}", "{'important': <'yes'>}", "{'sound-file': <uint32 7>}", "{'x-unknown-hint': <'value'>}"] {
                let id = try #require(try client.trigger("message-new-instant", hints: hints).id, "\(hints)")
                #expect(try client.waitForEnd(of: id, timeout: .seconds(20)) == Reason.natural.rawValue, "\(hints)")
            }
        }

        @Test(arguments: ServiceDaemon.Kind.allCases)
        func anEventTheThemeLacksGetsAnIDThenEndsAsNotFoundOnce(_ kind: ServiceDaemon.Kind) throws {
            let client = try HarnessService(kind).client
            let id = try #require(try client.trigger("no-such-event").id)
            #expect(try client.waitForEnd(of: id) == Reason.notFound.rawValue)
            let ends = try client.signals(settle: .milliseconds(300)).filter { $0.member == "FeedbackEnded" }
            #expect(ends == [FeedbackClient.Signal(member: "FeedbackEnded", args: [.int(Int(id)), .int(Reason.notFound.rawValue)])])
        }

        @Test(arguments: ServiceDaemon.Kind.allCases)
        func idsIncreaseByOneWhateverTheFeedbackBecomes(_ kind: ServiceDaemon.Kind) throws {
            let client = try HarnessService(kind).client
            var ids: [UInt32] = []
            for (event, timeout) in [("no-such-event", -1), ("message-new-instant", -1), ("phone-incoming-call", 0), ("no-such-event", 5)] {
                ids.append(try #require(try client.trigger(event, timeout: Int32(timeout)).id))
                _ = try client.trigger(app: "", event)  // refused: takes no id
            }
            #expect(ids == [1, 2, 3, 4])
        }

        @Test(arguments: ServiceDaemon.Kind.allCases)
        func aFeedbackPlayedOnceEndsNaturally(_ kind: ServiceDaemon.Kind) throws {
            let client = try HarnessService(kind).client
            let id = try #require(try client.trigger("message-new-instant", timeout: -1).id)
            #expect(try client.waitForEnd(of: id, timeout: .seconds(20)) == Reason.natural.rawValue)
            // A timeout below -1 is taken as -1.
            let clamped = try #require(try client.trigger("message-new-instant", timeout: -7).id)
            #expect(try client.waitForEnd(of: clamped, timeout: .seconds(20)) == Reason.natural.rawValue)
        }

        @Test(arguments: ServiceDaemon.Kind.allCases)
        func anEndlessFeedbackRunsUntilEndFeedbackThenEndsExplicitlyOnce(_ kind: ServiceDaemon.Kind) throws {
            let client = try HarnessService(kind).client
            let id = try #require(try client.trigger("phone-incoming-call", timeout: 0).id)
            // Longer than the event's one play (1 s of vibration, a ~1 s sound) and not ended:
            // the wait is what is tested.
            #expect(try client.waitForEnd(of: id, timeout: .milliseconds(2500)) == nil)
            #expect(try client.end(id).values == [])
            #expect(try client.waitForEnd(of: id) == Reason.explicit.rawValue)
            #expect(try client.signals(settle: .milliseconds(300)).filter { $0.member == "FeedbackEnded" }.count == 1)
        }

        @Test(arguments: ServiceDaemon.Kind.allCases)
        func endFeedbackOfAnUnknownOrEndedIDAnswersEmptyAndSignalsNothing(_ kind: ServiceDaemon.Kind) throws {
            let client = try HarnessService(kind).client
            #expect(try client.end(4711).values == [])
            let id = try #require(try client.trigger("no-such-event").id)
            #expect(try client.waitForEnd(of: id) == Reason.notFound.rawValue)
            #expect(try client.end(id).values == [])
            let ends = try client.signals(settle: .milliseconds(300)).filter { $0.member == "FeedbackEnded" }
            #expect(ends.map(\.args) == [[.int(Int(id)), .int(Reason.notFound.rawValue)]])
        }

        @Test(arguments: ServiceDaemon.Kind.allCases)
        func everyFeedbackOfAClientThatLeavesTheBusEndsExplicitly(_ kind: ServiceDaemon.Kind) throws {
            let client = try HarnessService(kind).client
            try client.connect("leaving", watch: false)
            let first = try #require(try client.trigger("phone-incoming-call", timeout: 0, conn: "leaving").id)
            let second = try #require(try client.trigger("message-new-instant", timeout: 0, conn: "leaving").id)
            // Another client's feedback is not touched.
            let staying = try #require(try client.trigger("phone-incoming-call", timeout: 0).id)
            try client.close("leaving")
            #expect(try client.waitForEnd(of: first) == Reason.explicit.rawValue)
            #expect(try client.waitForEnd(of: second) == Reason.explicit.rawValue)
            #expect(try client.waitForEnd(of: staying, timeout: .milliseconds(500)) == nil)
            _ = try client.end(staying)
            #expect(try client.waitForEnd(of: staying) == Reason.explicit.rawValue)
        }

        @Test(arguments: ServiceDaemon.Kind.allCases)
        func theProfilePropertyIsReadWrittenAndAnnounced(_ kind: ServiceDaemon.Kind) throws {
            let client = try HarnessService(kind).client
            #expect(try client.profile().values == ["full"])
            _ = try client.signals()
            #expect(try client.setProfile("'quiet'").values == [])
            let changed = try client.waitForSignal("PropertiesChanged")
            #expect(changed == ["org.sigxcpu.Feedback", .object(["Profile": "quiet"]), .array([])])
            #expect(try client.profile().values == ["quiet"])
            // A value that is not a string is refused by the property's type.
            #expect(try client.setProfile("42").error == FeedbackClient.invalidArgs)
            #expect(try client.profile().values == ["quiet"])
        }

        @Test(arguments: ServiceDaemon.Kind.allCases)
        func theProfileLevelsDecideWhatIsFound(_ kind: ServiceDaemon.Kind) throws {
            // The comparison theme has nothing for these events at `silent` (and a level that
            // does not exist finds nothing): as the global profile or as the `profile` hint,
            // nothing is found; a hint can only lower the level, never raise it.
            let client = try HarnessService(kind).client
            for hint in ["silent", "no-such-level"] {
                let id = try #require(try client.trigger("message-new-instant", hints: "{'profile': <'\(hint)'>}").id)
                #expect(try client.waitForEnd(of: id) == Reason.notFound.rawValue, "hint \(hint)")
            }
            _ = try client.setProfile("'silent'")
            let silenced = try #require(try client.trigger("message-new-instant").id)
            #expect(try client.waitForEnd(of: silenced) == Reason.notFound.rawValue)
            let notRaised = try #require(try client.trigger("message-new-instant", hints: "{'profile': <'full'>}").id)
            #expect(try client.waitForEnd(of: notRaised) == Reason.notFound.rawValue)
            _ = try client.setProfile("'full'")
            let played = try #require(try client.trigger("message-new-instant").id)
            #expect(try client.waitForEnd(of: played, timeout: .seconds(20)) == Reason.natural.rawValue)
        }

        @Test(arguments: ServiceDaemon.Kind.allCases)
        func anUnknownMethodOrInterfaceIsTheStandardError(_ kind: ServiceDaemon.Kind) throws {
            let client = try HarnessService(kind).client
            #expect(try client.call("org.sigxcpu.Feedback.NoSuchMethod", "(u)", "(uint32 1,)").error == "org.freedesktop.DBus.Error.UnknownMethod")
            // GDBus (feedbackd) answers InvalidArgs for a property or interface the object does
            // not have; ours answers the same (sd-bus alone would say UnknownProperty).
            let unknownProperty = try client.call("org.freedesktop.DBus.Properties.Get", "(ss)", "('org.sigxcpu.Feedback', 'NoSuchProperty')")
            #expect(unknownProperty.error == FeedbackClient.invalidArgs, "\(unknownProperty)")
            let unknownInterface = try client.call("org.freedesktop.DBus.Properties.Get", "(ss)", "('org.example.Nothing', 'Profile')")
            #expect(unknownInterface.error == FeedbackClient.invalidArgs, "\(unknownInterface)")
            #expect(try client.call("org.freedesktop.DBus.Peer.Ping", nil, "()").values == [])
        }
    }
}
