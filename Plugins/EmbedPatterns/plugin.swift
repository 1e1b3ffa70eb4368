import PackagePlugin

/// Embeds every `Patterns/*.ahap` of the package into the target as generated Swift, so the
/// library and a copied `haptics` binary carry their presets without any resource files.
///
/// The input is the `Patterns` folder itself, not a list of its files: SwiftPM reuses a build
/// plan until the package changes, so a file list made here would go stale (a new pattern
/// ignored, a deleted one reported missing). A folder input reruns the tool whenever a file in
/// it is added, removed or edited, and the tool lists the folder afresh each time.
@main
struct EmbedPatterns: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = context.package.directoryURL.appending(path: "Patterns", directoryHint: .isDirectory)
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedPatterns.swift", directoryHint: .notDirectory)
        return [
            .buildCommand(
                displayName: "Embedding the haptic patterns of Patterns/",
                executable: try context.tool(named: "embed-patterns").url,
                arguments: [output.path, folder.path],
                inputFiles: [folder],
                outputFiles: [output]
            )
        ]
    }
}
