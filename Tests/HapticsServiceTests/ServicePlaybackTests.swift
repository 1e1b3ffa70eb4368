import Foundation
import HapticsTestSupport
import Testing

/// What `haptics daemon` puts into its device: each scenario triggers feedback over D-Bus, stops
/// the daemon (which closes its `file:` device) and measures the WAV it wrote. The theme is
/// `playback-theme.json`: feedbackd's default durations, both magnitude scales, every vibra type
/// and the `Pattern` extension.
extension ServiceHarness {
    @Suite struct ServicePlayback {
        typealias Reason = FeedbackClient.EndReason
        static let theme = FeedbackClient.script.deletingLastPathComponent().appendingPathComponent("playback-theme.json")

        /// Triggers `event`, waits for its end (checking the reason), stops the daemon (exit 0)
        /// and returns the drive signal it wrote: the largest magnitude over the channels of
        /// each frame, and the sample rate.
        func drive(
            of event: String, timeout: Int32 = -1, endAfter: Duration? = nil, reason: Reason = .natural,
            sourceLocation: SourceLocation = #_sourceLocation
        ) throws -> (samples: [Float], rate: Double) {
            let service = try HarnessService(.haptics, theme: Self.theme)
            let id = try #require(try service.client.trigger(event, timeout: timeout).id, sourceLocation: sourceLocation)
            if let endAfter {
                // The feedback is endless: it runs for this long before it is ended, and the
                // length of signal is what the test measures.
                #expect(try service.client.waitForEnd(of: id, timeout: endAfter) == nil, sourceLocation: sourceLocation)
                _ = try service.client.end(id)
            }
            #expect(try service.client.waitForEnd(of: id, timeout: .seconds(30)) == reason.rawValue, sourceLocation: sourceLocation)
            #expect(service.daemon.stop() == 0, "\(service.daemon.errorOutput)", sourceLocation: sourceLocation)
            let wav = try WAVFile(contentsOf: try #require(service.daemon.outputFile, sourceLocation: sourceLocation))
            let samples = wav.samplesAsFloat
            let channels = max(1, wav.channelCount)
            let frames = stride(from: 0, to: samples.count - channels + 1, by: channels).map { start in
                samples[start..<(start + channels)].reduce(Float(0)) { max($0, abs($1)) }
            }
            return (frames, Double(wav.sampleRate))
        }

        /// Seconds from the first to the last frame above a tenth of the peak.
        func span(_ drive: (samples: [Float], rate: Double)) -> Double {
            let threshold = (drive.samples.max() ?? 0) / 10
            guard let first = Signal.firstNonZero(drive.samples, threshold: threshold), let last = Signal.lastNonZero(drive.samples, threshold: threshold)
            else { return 0 }
            return Double(last - first + 1) / drive.rate
        }

        @Test func anIncomingCallPutsOneSecondOfDriveIntoTheDevice() throws {
            let drive = try drive(of: "phone-incoming-call")
            #expect((drive.samples.max() ?? 0) > 0.05)
            #expect(abs(span(drive) - 1.0) < 0.05, "\(span(drive)) s of drive")
        }

        @Test func aButtonPressIsAShortTick() throws {
            let drive = try drive(of: "button-pressed")
            #expect((drive.samples.max() ?? 0) > 0.05)
            #expect(span(drive) > 0.002 && span(drive) < 0.03, "\(span(drive)) s of drive")
        }

        @Test func aVibraPatternPlaysItsStepsAtTheirTimes() throws {
            // [0.5, 0, 0.5] for [50, 250, 50] ms: two pulses whose starts are 300 ms apart.
            let drive = try drive(of: "notification-new-generic")
            let threshold = (drive.samples.max() ?? 0) / 10
            let gated = drive.samples.map { $0 > threshold ? $0 : 0 }
            let onsets = Signal.onsets(gated, gap: Int(0.1 * drive.rate))
            try #require(onsets.count == 2, "onsets at \(onsets)")
            #expect(abs(Double(onsets[1] - onsets[0]) / drive.rate - 0.3) < 0.003)
            #expect(abs(span(drive) - 0.35) < 0.02, "\(span(drive)) s")
        }

        @Test func aRumbleWithCountAndPauseRepeatsOnTime() throws {
            // feedbackd's rule: `count` rumbles share `duration` (900 ms), each `duration / count −
            // pause` long (100 ms) and followed by `pause` (200 ms): starts 300 ms apart.
            let drive = try drive(of: "message-new-instant")
            let threshold = (drive.samples.max() ?? 0) / 10
            let gated = drive.samples.map { $0 > threshold ? $0 : 0 }
            let onsets = Signal.onsets(gated, gap: Int(0.1 * drive.rate))
            try #require(onsets.count == 3, "onsets at \(onsets)")
            #expect(abs(Double(onsets[1] - onsets[0]) / drive.rate - 0.3) < 0.003)
            #expect(abs(Double(onsets[2] - onsets[1]) / drive.rate - 0.3) < 0.003)
        }

        @Test func aPatternFeedbackPlaysItsPreset() throws {
            let drive = try drive(of: "message-sent-instant")
            #expect((drive.samples.max() ?? 0) > 0.05)
            #expect(span(drive) > 0.01)
        }

        @Test func aTimeoutOfNSecondsRepeatsTheFeedbackThenEndsItAsExpired() throws {
            // A `file:` device takes samples as fast as they come (it is not paced by a clock),
            // so the seconds of the timeout are not the seconds in the file: the feedback played
            // past its one second (it repeated) and ended as expired.
            let drive = try drive(of: "phone-incoming-call", timeout: 2, reason: .expired)
            #expect(span(drive) > 1.9, "\(span(drive)) s of drive")
        }

        @Test func anEndlessFeedbackKeepsDrivingUntilItIsEnded() throws {
            let drive = try drive(of: "phone-incoming-call", timeout: 0, endAfter: .milliseconds(2500), reason: .explicit)
            #expect(span(drive) > 2.4, "\(span(drive)) s of drive")
        }

        @Test func anEventTheThemeLacksPutsNothingIntoTheDevice() throws {
            let service = try HarnessService(.haptics, theme: Self.theme)
            let id = try #require(try service.client.trigger("no-such-event").id)
            #expect(try service.client.waitForEnd(of: id) == Reason.notFound.rawValue)
            #expect(service.daemon.stop() == 0)
            if let file = service.daemon.outputFile, FileManager.default.fileExists(atPath: file.path) {
                let wav = try WAVFile(contentsOf: file)
                #expect(wav.samplesAsFloat.allSatisfy { $0 == 0 })
            }
        }

        @Test func sigtermEndsEveryFeedbackAndExitsZero() throws {
            let service = try HarnessService(.haptics, theme: Self.theme)
            let id = try #require(try service.client.trigger("phone-incoming-call", timeout: 0).id)
            #expect(try service.client.waitForEnd(of: id, timeout: .milliseconds(300)) == nil)
            #expect(service.daemon.stop(signal: SIGTERM) == 0, "\(service.daemon.errorOutput)")
            #expect(service.daemon.errorLines.isEmpty, "\(service.daemon.errorOutput)")
            // The last samples written are silence: the motor was not left running.
            let wav = try WAVFile(contentsOf: try #require(service.daemon.outputFile))
            let tail = wav.samplesAsFloat.suffix(wav.channelCount * 48)
            #expect(tail.allSatisfy { abs($0) < 0.01 }, "tail \(Array(tail.suffix(8)))")
        }
    }
}
