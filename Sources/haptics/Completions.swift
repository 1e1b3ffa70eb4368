import FoundationEssentials
import Glibc
import Haptics

/// What the shell completions offer for values that depend on the machine (see ``Completer``):
/// the shell calls back into `haptics` for them, so they follow the installed presets, the
/// machine's devices and the files in the folder being typed.
enum Completions {
    /// Preset names and aliases, then `.ahap`/`.json` files.
    static let pattern = ArgumentSpec.Completion.custom { prefix in
        let presets = PresetLibrary.all.flatMap { [$0.name] + $0.aliases }.filter { $0.hasPrefix(prefix) }
        return presets.sorted() + files(matching: prefix, extensions: ["ahap", "json"])
    }

    /// Built-in profile names, the profiles folders' names, then `.json` profile files.
    static let profile = ArgumentSpec.Completion.custom { prefix in
        var names = ActuatorProfile.builtIn.map(\.name)
        for folder in ProfileLookup.folders(environment: PlayOutput.environment) {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            names += files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted().filter { !names.contains($0) }
        }
        return names.filter { $0.hasPrefix(prefix) } + files(matching: prefix, extensions: ["json"])
    }

    /// The haptic outputs found (best first), then ALSA playback devices, as `haptics devices`
    /// lists them.
    static let device = ArgumentSpec.Completion.custom { prefix in
        var names = HapticOutputDiscovery.current.outputs().map(\.device)
        names += ALSADevices.playbackDevices().map(\.name).filter { !names.contains($0) }
        for name in ["default", "null"] where !names.contains(name) { names.append(name) }
        return names.filter { $0.hasPrefix(prefix) }
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
