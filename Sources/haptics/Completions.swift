import FoundationEssentials
import Glibc
import Haptics

/// What the shell completions offer for values that depend on the machine (see ``Completer``):
/// the shell calls back into `haptics` for them, so they follow the installed presets, the
/// machine's devices and the files in the folder being typed.
enum Completions {
    /// Preset names and aliases, then the pattern files commands read (`.ahap`, `.json`,
    /// `.haptic`; `.android.json` and `.web.json` are `.json`).
    static let pattern = ArgumentSpec.Completion.custom { prefix in
        let presets = PresetLibrary.all.flatMap { [$0.name] + $0.aliases }.filter { $0.hasPrefix(prefix) }
        return presets.sorted() + files(matching: prefix, extensions: ["ahap", "json", "haptic"])
    }

    /// The sound files `analyze` reads (what libsndfile decodes).
    static let soundExtensions = ["wav", "flac", "ogg", "oga", "opus", "mp3", "aiff", "aif", "aifc", "caf", "w64", "rf64", "au"]

    /// Built-in profile names, the profiles folders' names, then `.json` profile files.
    static let profile = ArgumentSpec.Completion.custom { prefix in
        var names = ActuatorProfile.builtIn.map(\.name)
        for folder in ProfileLookup.folders(environment: PlayOutput.environment) {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            names += files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted().filter { !names.contains($0) }
        }
        return names.filter { $0.hasPrefix(prefix) } + files(matching: prefix, extensions: ["json"])
    }

    /// The outputs `haptics devices` lists as usable: the haptic outputs this user can open
    /// (best first), then the ALSA playback devices that open (or are a card's, busy now),
    /// then the names the help documents (`default`, `pulse`, `null`). ALSA's plugins that
    /// are not outputs by themselves (rate converters, `upmix`, a `jack` with no server) are
    /// left out.
    static let device = ArgumentSpec.Completion.custom { prefix in
        var names = HapticOutputDiscovery.current.outputs().filter(\.isUsable).map(\.device)
        names += ALSADevices.playbackDevices().filter(isOutput).map(\.name).filter { !names.contains($0) }
        for name in documentedDevices where !names.contains(name) { names.append(name) }
        return names.filter { $0.hasPrefix(prefix) }
    }

    /// The device names `play --device`'s help documents, offered even when ALSA lists none.
    static let documentedDevices = ["default", "pulse", "null"]

    /// An ALSA device that plays by itself: it opened when `haptics devices` probed it, or it
    /// is a sound card's that another program holds.
    static func isOutput(_ device: ALSADevice) -> Bool {
        device.latency != nil || (device.isBusy && device.card != nil)
    }

    /// Files with one of `extensions` and folders, in the folder `prefix` points into.
    static func files(matching prefix: String, extensions: Set<String>) -> [String] {
        let slash = prefix.lastIndex(of: "/")
        let folder = slash.map { String(prefix[...$0]) } ?? ""
        let start = slash.map { String(prefix[prefix.index(after: $0)...]) } ?? prefix
        let expanded = folder.hasPrefix("~/") ? FileManager.default.homeDirectoryForCurrentUser.path + folder.dropFirst() : folder
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: expanded.isEmpty ? "." : expanded) else { return [] }
        return names.filter { $0.hasPrefix(start) && !$0.hasPrefix(".") }.sorted().compactMap { name in
            var status = stat()
            if stat((expanded.isEmpty ? "" : expanded) + name, &status) == 0, status.st_mode & S_IFMT == S_IFDIR { return folder + name + "/" }
            return extensions.contains(URL(fileURLWithPath: name).pathExtension.lowercased()) ? folder + name : nil
        }
    }
}
