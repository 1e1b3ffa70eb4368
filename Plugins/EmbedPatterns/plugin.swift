import PackagePlugin
@main struct EmbedPatterns: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] { [] }
}
