import CoreHaptics
import Foundation
import Haptics
import HapticsTestSupport
import Testing

@Suite("CoreHaptics errors carry user info, bridge to NSError and use Apple's codes")
struct ErrorBridgingTests {
    @Test("init(_:userInfo:) keeps every user info entry; userInfo, _nsError and errorUserInfo give them back")
    func userInfoIsKept() {
        let error = CHHapticError(
            .invalidPatternPlayer,
            userInfo: [NSLocalizedDescriptionKey: "player gone", "PlayerName": "jump", NSUnderlyingErrorKey: CHHapticError(.memoryError)])
        #expect(error.userInfo["PlayerName"] as? String == "jump")
        #expect(error.userInfo[NSLocalizedDescriptionKey] as? String == "player gone")
        #expect((error.userInfo[NSUnderlyingErrorKey] as? CHHapticError)?.code == .memoryError)
        #expect(error.errorUserInfo["PlayerName"] as? String == "jump")
        let bridged = error._nsError
        #expect(bridged.domain == "com.apple.CoreHaptics" && bridged.code == -4812)
        #expect(bridged.userInfo["PlayerName"] as? String == "jump")
        #expect(bridged.localizedDescription == "player gone")
        let cast = error as NSError
        #expect(cast.code == -4812 && cast.userInfo["PlayerName"] as? String == "jump")
    }

    @Test("errors thrown by the engine have their message as NSLocalizedDescriptionKey")
    func thrownErrorsHaveDescriptions() throws {
        do {
            _ = try CHHapticPattern(dictionary: [.pattern: [Any]()])
            Issue.record("an empty pattern was accepted")
        } catch let error as CHHapticError {
            #expect(error.userInfo[NSLocalizedDescriptionKey] as? String == error.message)
            #expect(error._nsError.code == error.code.rawValue)
        }
    }

    @Test("Apple's codes: an empty pattern dictionary -4814, contentsOf: with a non-file URL -4851, with another extension -4809")
    func applesCodes() throws {
        expectError(.invalidPatternDictionary) { _ = try CHHapticPattern(dictionary: [.pattern: [Any]()]) }
        expectError(.fileNotFound) { _ = try CHHapticPattern(contentsOf: URL(string: "https://example.com/tap.ahap")!) }
        let folder = try TemporaryFolder()
        let text = try folder.write("tap.txt", #"{ "Pattern": [ { "Event": { "Time": 0, "EventType": "HapticTransient" } } ] }"#)
        expectError(.notSupported) { _ = try CHHapticPattern(contentsOf: text) }
        let json = try folder.write("tap.json", #"{ "Pattern": [ { "Event": { "Time": 0, "EventType": "HapticTransient" } } ] }"#)
        #expect(try CHHapticPattern(contentsOf: json).hapticPattern.events.count == 1)
        let upper = try folder.write("tap.AHAP", #"{ "Pattern": [ { "Event": { "Time": 0, "EventType": "HapticTransient" } } ] }"#)
        #expect(try CHHapticPattern(contentsOf: upper).hapticPattern.events.count == 1)
    }

    @Test("the same codes for a dictionary with no keys, keyed by Key or by String, and for playPattern(from:) with such URLs")
    func applesCodesEverywhere() throws {
        expectError(.invalidPatternDictionary) { _ = try CHHapticPattern(dictionary: [:]) }
        expectError(.invalidPatternDictionary) { _ = try CHHapticPattern(dictionary: [String: Any]()) }
        expectError(.invalidPatternDictionary) { _ = try CHHapticPattern(dictionary: ["Pattern": [Any]()] as [String: Any]) }
        let engine = CHHapticEngine(hapticEngine: HapticEngine(device: "null"))
        expectError(.fileNotFound) { try engine.playPattern(from: URL(string: "https://example.com/tap.ahap")!) }
        let folder = try TemporaryFolder()
        let text = try folder.write("tap.txt", #"{ "Pattern": [ { "Event": { "Time": 0, "EventType": "HapticTransient" } } ] }"#)
        expectError(.notSupported) { try engine.playPattern(from: text) }
    }
}
