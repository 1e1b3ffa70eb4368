import Foundation
import PackagePlugin

/// Embeds every `Patterns/*.ahap` of the package into the target as generated Swift, so the
/// library and a copied `haptics` binary carry their presets without any resource files.
///
/// The files are declared as inputs, so editing, adding or removing one regenerates the code
/// (the plugin itself runs on every build and lists the folder afresh).
@main
struct EmbedPatterns: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = context.package.directoryURL.appending(path: "Patterns", directoryHint: .isDirectory)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        let inputs = names
            .filter { $0.hasSuffix(".ahap") }
            .sorted()
            .map { folder.appending(path: $0, directoryHint: .notDirectory) }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedPatterns.swift", directoryHint: .notDirectory)
        return [
            .buildCommand(
                displayName: "Embedding \(inputs.count) haptic patterns from Patterns/",
                executable: try context.tool(named: "embed-patterns").url,
                arguments: [output.path] + inputs.map(\.path),
                inputFiles: inputs,
                outputFiles: [output]
            ),
        ]
    }
}
