// swift-tools-version:6.0
import PackageDescription

import Foundation

/// This manifest's folder, for paths the linker reads (it does not run in the package's root).
let packageRoot = String(#filePath.dropLast("/Package.swift".count))

/// Packed relative relocations (DT_RELR) shrink the binary's 900 KB table of relocations,
/// which every run reads, to 8 KB. glibc reads them from 2.36 on and such a binary needs it, so
/// they are used where the build machine has it: as with any symbol it links, a binary runs on
/// the glibc it was built with and later ones.
let packsRelocations: Bool = {
    #if os(Linux)
        // "glibc 2.36"
        var text = [CChar](repeating: 0, count: 64)
        guard confstr(Int32(_CS_GNU_LIBC_VERSION), &text, text.count) > 0 else { return false }
        let bytes = text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        let version = String(decoding: bytes, as: UTF8.self).split(separator: " ").last?.split(separator: ".").compactMap { Int($0) } ?? []
        return version.count >= 2 && (version[0], version[1]) >= (2, 36)
    #else
        return false
    #endif
}()

/// Whether an archive sits in the folder of the newest GCC the compiler links from (Debian and
/// Ubuntu install libstdc++.a and libgcc_eh.a there; Fedora's libstdc++.a is libstdc++-static).
func gccHasArchive(_ name: String) -> Bool {
    #if os(Linux)
        for triple in ["x86_64-linux-gnu", "aarch64-linux-gnu", "x86_64-redhat-linux", "aarch64-redhat-linux"] {
            let folder = "/usr/lib/gcc/\(triple)"
            guard let versions = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
            let newest = versions.max { (Int($0.prefix { $0 != "." }) ?? 0) < (Int($1.prefix { $0 != "." }) ?? 0) }
            if let newest { return FileManager.default.fileExists(atPath: "\(folder)/\(newest)/\(name)") }
        }
    #endif
    return false
}

/// Where the C++ library's static archive is installed, `Linker/libstdc++.so` (a linker script)
/// links it into the binary.
let hasStaticLibstdcxx = gccHasArchive("libstdc++.a")

/// The unwinder linked in (`-static-libgcc`: libgcc_eh.a) rather than libgcc_s.so.1 loaded at
/// every start: one library fewer to find, map and relocate, 0.05 ms of each run (a static
/// Swift "hello", paired runs). C++ exceptions inside the runtime unwind with it as before.
let staticLibgcc: [String] = gccHasArchive("libgcc_eh.a") ? ["-Xclang-linker", "-static-libgcc"] : []

let package = Package(
    name: "haptics",
    products: [
        .executable(name: "haptics", targets: ["haptics"]),
        .library(name: "Haptics", targets: ["Haptics"]),
        // Apple's Core Haptics API over the native engine, for code ported from iOS.
        .library(name: "CoreHaptics", targets: ["CoreHaptics"]),
        // Other platforms' formats and audio-to-haptics analysis (the README's AudioAnalyzer).
        .library(name: "HapticsFormats", targets: ["HapticsFormats"]),
    ],
    dependencies: [
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        // `swift package generate-documentation` (scripts/docs.sh): the DocC site.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // Layer 0: what every layer needs of the system — threads, locks and semaphores, the
        // atomic file writer, private folders, bounded file reading, errno and EINTR, optional
        // libraries opened on first use.
        .target(name: "HapticsSystem", dependencies: ["CSystem"]),
        // Layer 1: the pattern model and the AHAP format. No I/O beyond reading files.
        .target(name: "HapticsCore", dependencies: ["HapticsSystem"]),
        // Layer 2: synthesis — profiles, voices, mixer, rumble mapping, WAV.
        .target(name: "HapticsRender", dependencies: ["HapticsCore", "HapticsSystem", "CSystem", "COptionalLibraries"]),
        // What Swift cannot call itself: a timed semaphore wait (a GNU extension Glibc does not
        // declare) and printf's `%.*f` (variadic).
        .target(name: "CSystem"),
        // Layer 2': the preset library, embedded from Patterns/ at build time.
        .target(
            name: "HapticsPresets",
            dependencies: ["HapticsCore"],
            plugins: ["EmbedPatterns"]
        ),
        // Layer 3: real time — engine, players, scheduler, ALSA and evdev sinks.
        .target(name: "HapticsPlayback", dependencies: ["HapticsRender", "HapticsSystem", "CALSA", "CPulse", "CLinuxInput"]),
        // libasound, opened on first use rather than linked (library.c), plus a C shim for what
        // Swift cannot call (variadic error handler).
        .target(name: "CALSA"),
        // A PulseAudio playback stream through libpulse (opened on first use, not linked), for
        // `--device pulse`: ALSA's pulse plugin cost more CPU and start-up than the stream.
        .target(name: "CPulse"),
        // <linux/input.h> ioctls, whose request numbers are function-like macros.
        .target(name: "CLinuxInput"),
        // Other platforms' formats (Meta .haptic, Android, Web, feedbackd) and audio-to-haptics
        // analysis, reading sound files through libsndfile and transforming them with kissfft.
        .target(name: "HapticsFormats", dependencies: ["HapticsCore", "HapticsRender", "HapticsPresets", "HapticsSystem", "COptionalLibraries"]),
        // libsndfile, libsoxr, kissfft and librsvg, opened on first use (not linked): one table each.
        .target(name: "COptionalLibraries"),
        // Every haptic output the machine has (ALSA actuators, evdev vibration motors, gamepads,
        // touchpads, the DualSense), what each can do, and the one choice the command, the
        // library, CoreHaptics and the feedback service share.
        .target(name: "HapticsOutputs", dependencies: ["HapticsPlayback", "HapticsPresets", "HapticsSystem"]),
        // The umbrella library apps import.
        .target(name: "Haptics", dependencies: ["HapticsSystem", "HapticsCore", "HapticsRender", "HapticsPresets", "HapticsPlayback", "HapticsOutputs"]),
        // The feedback service (`haptics daemon`): feedbackd's D-Bus interface over the engine,
        // feedbackd's themes and profiles.
        .target(name: "HapticsService", dependencies: ["Haptics", "HapticsFormats", "HapticsSystem", "CSDBus"]),
        // sd-bus from libsystemd, opened on first use (not linked), for the feedback service:
        // its vtables, message parsing and varargs calls in C.
        .target(name: "CSDBus"),
        // `import CoreHaptics`: Apple's names and types, a thin layer over the native engine.
        .target(name: "CoreHaptics", dependencies: ["Haptics", "HapticsSystem"]),
        // Linked by lld with each function in a section of its own and those start-up runs
        // placed first, in the order scripts/startup-order.sh recorded: a run touches a few
        // contiguous pages of code instead of pages all over the binary (issue #15's start-up
        // and memory); with libstdc++ linked in where its archive is (Linker/libstdc++.so).
        // Unsafe flags are allowed here: no other package builds this target.
        .executableTarget(
            name: "haptics",
            dependencies: ["Haptics", "HapticsFormats", "HapticsService", "HapticsSystem", "CSystem", "COptionalLibraries", "CStartup"],
            swiftSettings: [.unsafeFlags(["-Xfrontend", "-function-sections"])],
            linkerSettings: [
                .unsafeFlags(
                    [
                        "-use-ld=lld", "-Xlinker", "--symbol-ordering-file=\(packageRoot)/Linker/startup.order",
                        "-Xlinker", "--no-warn-symbol-ordering",
                    ] + (packsRelocations ? ["-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"] : [])
                        + (hasStaticLibstdcxx ? ["-L\(packageRoot)/Linker"] : []) + staticLibgcc)
            ]
        ),
        // What `haptics` does before the Swift runtime starts: the command line kept from the
        // executable's constructor instead of found in /proc/self/maps, and `play --device
        // pulse`'s connection to the server begun there.
        .target(name: "CStartup", dependencies: ["CPulse"]),
        // Build-time embedding of Patterns/*.ahap so a copied binary needs no resources.
        .executableTarget(name: "embed-patterns", path: "Plugins/EmbedPatternsTool"),
        .plugin(name: "EmbedPatterns", capability: .buildTool(), dependencies: ["embed-patterns"]),

        // What the benchmarks share, and the tests through HapticsTestSupport: running a child
        // (posix_spawn, never Foundation's Process), a private PulseAudio server, statistics.
        .target(name: "BenchmarkSupport", path: "Benchmarks/Support"),
        .executableTarget(name: "render-benchmark", dependencies: ["HapticsRender", "HapticsSystem", "BenchmarkSupport"], path: "Benchmarks/RenderBenchmark"),
        .executableTarget(name: "playback-benchmark", dependencies: ["Haptics", "BenchmarkSupport"], path: "Benchmarks/PlaybackBenchmark"),
        .executableTarget(name: "analyze-benchmark", dependencies: ["HapticsFormats", "HapticsSystem"], path: "Benchmarks/AnalyzeBenchmark"),
        .executableTarget(name: "latency-benchmark", dependencies: ["Haptics", "BenchmarkSupport"], path: "Benchmarks/LatencyBenchmark"),
        // What latency-benchmark spawns as the floor of a spawned play: a static Swift program
        // that only opens the stream through CPulse and writes the click, linked as `haptics` is.
        .executableTarget(
            name: "pulse-floor", dependencies: ["CPulse", "CStartup"], path: "Benchmarks/PulseFloor",
            linkerSettings: [
                .unsafeFlags(
                    ["-use-ld=lld"] + (packsRelocations ? ["-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"] : [])
                        + (hasStaticLibstdcxx ? ["-L\(packageRoot)/Linker"] : []) + staticLibgcc)
            ]),
        // `haptics daemon` against Debian's feedbackd: TriggerFeedback → first sample, CPU (#25).
        .executableTarget(name: "service-latency-benchmark", dependencies: ["BenchmarkSupport"], path: "Benchmarks/ServiceLatencyBenchmark"),
        // Start-up and peak memory of the CLI against aplay and a Foundation "hello" (issue #15),
        // with the two small programs it measures beside `haptics`.
        .executableTarget(name: "startup-benchmark", dependencies: ["BenchmarkSupport"], path: "Benchmarks/StartupBenchmark"),
        .executableTarget(name: "hello-foundation", path: "Benchmarks/HelloFoundation"),
        .executableTarget(name: "peak-rss", path: "Benchmarks/PeakRSS"),

        // Helpers the test targets share (once): the corpus, signal measurements, WAV files,
        // scratch folders, running the CLI, waiting on conditions, the real-time gate.
        .target(name: "HapticsTestSupport", dependencies: ["BenchmarkSupport", "HapticsPlayback", "CTestSupport"], path: "Tests/HapticsTestSupport"),
        // The test process names the signal that ends it and its sender: `swift test` does not.
        .target(name: "CTestSupport", path: "Tests/CTestSupport"),
        .testTarget(
            name: "HapticsCoreTests",
            dependencies: ["HapticsCore", "HapticsTestSupport", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(name: "HapticsSystemTests", dependencies: ["HapticsSystem", "HapticsTestSupport"]),
        .testTarget(name: "HapticsRenderTests", dependencies: ["HapticsRender", "HapticsSystem", "HapticsTestSupport"]),
        .testTarget(name: "HapticsPresetsTests", dependencies: ["HapticsPresets", "HapticsRender", "HapticsTestSupport"]),
        .testTarget(name: "HapticsPlaybackTests", dependencies: ["HapticsPlayback", "HapticsPresets", "HapticsTestSupport", "BenchmarkSupport"]),
        // The tests write FLAC, Ogg and MP3 files with libsndfile directly (the library loads it
        // only when analysing).
        .testTarget(
            name: "HapticsFormatsTests", dependencies: ["HapticsFormats", "HapticsRender", "HapticsTestSupport", "COptionalLibraries"],
            linkerSettings: [.linkedLibrary("sndfile")]),
        .testTarget(name: "HapticsOutputsTests", dependencies: ["HapticsOutputs", "HapticsPlayback", "HapticsTestSupport"]),
        .testTarget(
            name: "HapticsServiceTests", dependencies: ["HapticsService", "Haptics", "HapticsTestSupport", "BenchmarkSupport"], exclude: ["Clients"]),
        .testTarget(name: "CoreHapticsTests", dependencies: ["CoreHaptics", "Haptics", "HapticsTestSupport"]),
        .testTarget(name: "hapticsCLITests", dependencies: ["haptics", "HapticsTestSupport"]),
        .testTarget(name: "BenchmarkSupportTests", dependencies: ["BenchmarkSupport", "HapticsTestSupport"]),
        // The public API against its committed baseline in api/ (from the compiler's symbol graphs).
        .testTarget(name: "PublicAPITests", dependencies: ["HapticsTestSupport"]),
    ]
)
