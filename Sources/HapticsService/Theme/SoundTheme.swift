import FoundationEssentials
import Glibc
import Haptics
import HapticsFormats
import HapticsRender
import HapticsSystem

/// Sounds of the freedesktop sound theme specification, as feedbackd's `Sound` feedback plays
/// them: `<data dir>/sounds/<theme>/stereo/<name>.{oga,ogg,wav}` in `$XDG_DATA_HOME` then
/// each of `$XDG_DATA_DIRS` (default `/usr/local/share:/usr/share`), in the theme, the themes
/// its `index.theme` inherits, then `freedesktop`; a name not found is tried again without its
/// last `-part` (`message-new-instant`, `message-new`, `message`), as the specification says.
package struct SoundTheme: Sendable {
    /// The theme looked in first.
    package var name: String
    /// The themes searched, in order: the theme, those it inherits, `freedesktop`.
    package var themes: [String]
    /// The data folders searched, in order.
    package var dataDirectories: [String]
    /// Where decoded sounds are kept as WAV files for the engine.
    package var cacheDirectory: String

    /// The extensions tried, in the specification's order.
    static let extensions = ["oga", "ogg", "wav"]
    /// The longest sound read: 16 MiB (the freedesktop theme's longest is 150 KB).
    package static let byteLimit = 16 << 20

    /// The sound theme of an environment: `HAPTICS_SOUND_THEME`; else, with
    /// `askingDesktop`, the desktop's (GSettings `org.gnome.desktop.sound theme-name`, which
    /// Phosh and GNOME set, read through `gsettings`); else `freedesktop`. Decoded sounds are
    /// cached in `$XDG_RUNTIME_DIR/haptics/sounds` (or the system's temporary folder).
    package init(environment: [String: String], askingDesktop: Bool = false) {
        let named = environment["HAPTICS_SOUND_THEME"].flatMap { $0.isEmpty ? nil : $0 }
        let desktop =
            askingDesktop && named == nil
            ? GSettingsReader.values(of: "org.gnome.desktop.sound", path: nil, environment: environment)?["theme-name"]
                .flatMap(GVariantText.string) : nil
        name = named ?? desktop.flatMap { $0.isEmpty || $0.contains("/") ? nil : $0 } ?? "freedesktop"
        dataDirectories = XDGDirectories.dataDirectories(environment: environment)
        let runtime =
            environment["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp")
        cacheDirectory = runtime + "/haptics/sounds"
        themes = Self.inheritance(of: name, in: dataDirectories)
    }

    /// A theme and those it inherits (`Inherits=` of its `index.theme`, breadth first, at most
    /// 10), then `freedesktop`.
    static func inheritance(of theme: String, in folders: [String]) -> [String] {
        var themes: [String] = []
        var queue = [theme]
        while let next = queue.first, themes.count < 10 {
            queue.removeFirst()
            guard !themes.contains(next), !next.isEmpty, !next.contains("/") else { continue }
            themes.append(next)
            guard let index = folders.lazy.map({ "\($0)/sounds/\(next)/index.theme" }).first(where: XDGDirectories.isRegularFile),
                let bytes = DeviceTree.read(index)
            else { continue }
            for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") where line.hasPrefix("Inherits=") {
                queue += line.dropFirst("Inherits=".count).split(separator: ",").map { $0.trimmingSpaces() }
            }
        }
        return themes.contains("freedesktop") ? themes : themes + ["freedesktop"]
    }

    /// The file of a sound name, if the themes have it.
    package func file(for effect: String) -> String? {
        guard !effect.isEmpty, !effect.contains("/"), effect != ".", effect != ".." else { return nil }
        var candidate = Substring(effect)
        while !candidate.isEmpty {
            for theme in themes {
                for folder in dataDirectories {
                    for ext in Self.extensions {
                        let path = "\(folder)/sounds/\(theme)/stereo/\(candidate).\(ext)"
                        if XDGDirectories.isRegularFile(path) { return path }
                    }
                }
            }
            guard let dash = candidate.lastIndex(of: "-") else { break }
            candidate = candidate[..<dash]
        }
        return nil
    }

    /// The pattern that plays a sound file through the engine's audio path for the file's whole
    /// length: one `AudioCustom` event of the sound decoded (libsndfile: Ogg Vorbis, FLAC, WAV…)
    /// into a WAV file in ``cacheDirectory``, decoded once per file version.
    package func pattern(forFile path: String) throws -> HapticPattern {
        var info = stat()
        guard stat(path, &info) == 0 else { throw SoundThemeError("\(path): no such sound file") }
        guard info.st_mode & S_IFMT == S_IFREG else { throw SoundThemeError("\(path): not a regular file") }
        guard Int(info.st_size) <= Self.byteLimit else { throw SoundThemeError("\(path): larger than \(Self.byteLimit >> 20) MiB") }
        let key = path.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "_" }
        let stem = String(key).suffix(160) + "@"
        let cached = "\(cacheDirectory)/\(stem)\(info.st_mtim.tv_sec)-\(info.st_mtim.tv_nsec)-\(info.st_size).wav"
        let duration: Double
        if let known = Self.wavDuration(cached) {
            duration = known
        } else {
            let sound: AudioFile
            do { sound = try AudioFile(contentsOf: path) } catch { throw SoundThemeError(error.description) }
            guard !sound.samples.isEmpty else { throw SoundThemeError("\(path): the sound is empty") }
            try XDGDirectories.makeDirectories(cacheDirectory)
            // Older decodings of the same file (it changed since) go.
            for name in (try? FileManager.default.contentsOfDirectory(atPath: cacheDirectory)) ?? [] where name.hasPrefix(stem) {
                unlink(cacheDirectory + "/" + name)
            }
            do {
                let writer = try WAVWriter(path: cached, sampleRate: sound.sampleRate, channelCount: 1, format: .f32, frameCount: sound.samples.count)
                try sound.samples.withUnsafeBufferPointer { samples throws(WAVError) in try writer.write(samples) }
                try writer.finish()
            } catch {
                throw SoundThemeError("\(path): cannot keep the decoded sound: \(error.description)")
            }
            duration = sound.duration
        }
        let audio = HapticEvent.AudioResource(path: cached, usesVolumeEnvelope: false, loopEnabled: false)
        return HapticPattern(events: [HapticEvent(.audioCustom, at: 0, duration: duration, audio: audio)])
    }
}

extension SoundTheme {
    /// The length of a WAV file the cache holds, from its header alone (the `fmt ` chunk's
    /// rate and frame size, the `data` chunk's size); nil when it is not a complete one.
    static func wavDuration(_ path: String) -> Double? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        var header = [UInt8](repeating: 0, count: 512)
        let count = header.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count >= 44 else { return nil }
        func u16(_ o: Int) -> Int { Int(header[o]) | Int(header[o + 1]) << 8 }
        func u32(_ o: Int) -> Int { u16(o) | u16(o + 2) << 16 }
        func tag(_ o: Int) -> String { String(decoding: header[o..<o + 4], as: UTF8.self) }
        guard tag(0) == "RIFF", tag(8) == "WAVE" else { return nil }
        var offset = 12
        var rate = 0
        var frameBytes = 0
        while offset + 8 <= count {
            let size = u32(offset + 4)
            if tag(offset) == "fmt ", offset + 24 <= count {
                rate = u32(offset + 12)
                frameBytes = u16(offset + 20)
            } else if tag(offset) == "data" {
                // Complete only when the data the header declares is all there.
                guard rate > 0, frameBytes > 0, offset + 8 + size <= Int(info.st_size), size > 0 else { return nil }
                return Double(size / frameBytes) / Double(rate)
            }
            offset += 8 + size + (size & 1)
        }
        return nil
    }
}

/// A sound that cannot be played, in one line naming the file.
package struct SoundThemeError: Error, Sendable, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

/// The pattern of the `sound-file` hint: the file played whole through the engine's audio path
/// (see ``SoundTheme/pattern(forFile:)``), decoded into the cache of `environment`.
package func soundFilePattern(_ url: URL, environment: [String: String] = XDGDirectories.processEnvironment) throws -> HapticPattern {
    try SoundTheme(environment: environment).pattern(forFile: url.path)
}

/// The XDG base directories and small file checks the theme side shares.
package enum XDGDirectories {
    /// `$XDG_DATA_HOME` (or `~/.local/share`) and then `$XDG_DATA_DIRS` (or
    /// `/usr/local/share:/usr/share`); relative entries are ignored, as the specification says.
    package static func dataDirectories(environment: [String: String]) -> [String] {
        var folders: [String] = []
        if let home = environment["XDG_DATA_HOME"], home.hasPrefix("/") {
            folders.append(home)
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            folders.append(home + "/.local/share")
        }
        folders += systemDataDirectories(environment: environment)
        return folders
    }

    /// `$XDG_DATA_DIRS`, or `/usr/local/share:/usr/share` when unset or empty.
    package static func systemDataDirectories(environment: [String: String]) -> [String] {
        let listed = (environment["XDG_DATA_DIRS"] ?? "").split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        return listed.isEmpty ? ["/usr/local/share", "/usr/share"] : listed
    }

    /// `$XDG_CONFIG_HOME`, or `~/.config`.
    package static func configDirectory(environment: [String: String]) -> String? {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return config }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.config" }
        return nil
    }

    /// Whether a regular file (or a link to one) is at `path`.
    package static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// Creates a folder and its parents (mode 0700), succeeding when it exists.
    static func makeDirectories(_ path: String) throws {
        var prefix = ""
        for part in path.split(separator: "/") {
            prefix += "/" + part
            if mkdir(prefix, 0o700) != 0, errno != EEXIST {
                throw SoundThemeError("\(prefix): cannot create the folder (\(Errno.current))")
            }
        }
    }

    /// The variables the theme side reads, from the process's environment.
    package static var processEnvironment: [String: String] {
        var values: [String: String] = [:]
        for name in [
            "HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_DATA_DIRS", "XDG_RUNTIME_DIR", "TMPDIR", "FEEDBACK_THEME",
            "HAPTICS_SOUND_THEME", "HAPTICS_SETTINGS", "HAPTICS_FEEDBACK_SETTINGS", "GSETTINGS_SCHEMA_DIR", "GSETTINGS_BACKEND",
            "DBUS_SESSION_BUS_ADDRESS", "XDG_CONFIG_DIRS",
        ] {
            if let value = getenv(name) { values[name] = String(cString: value) }
        }
        return values
    }
}
