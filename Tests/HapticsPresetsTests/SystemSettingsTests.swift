import Foundation
import HapticsPresets
import HapticsTestSupport
import Testing

@Suite("The system-wide settings file, for embedded installs")
struct SystemSettingsTests {
    @Test("/etc/haptics/settings.json applies when the user has no settings file, and the user's file wins over it")
    func systemWide() throws {
        let home = try TemporaryFolder()
        let root = try TemporaryFolder()
        let environment = ["XDG_CONFIG_HOME": home.path, "HAPTICS_SYSTEM_ROOT": root.path]
        #expect(HapticSettings.load(environment: environment).settings == .standard)
        _ = try root.write("etc/haptics/settings.json", #"{"device": "hw:CARD=Vibra,DEV=0", "intensity": 0.5}"#)
        let system = HapticSettings.load(environment: environment)
        #expect(system.settings.device == "hw:CARD=Vibra,DEV=0" && system.settings.intensity == 0.5 && system.problems.isEmpty)
        #expect(system.file == root.path + "/etc/haptics/settings.json")
        _ = try home.write("haptics/settings.json", #"{"intensity": 0.8}"#)
        let user = HapticSettings.load(environment: environment)
        #expect(user.settings.intensity == 0.8 && user.settings.device == nil, "the user's file replaces the system's as a whole")
    }
}
