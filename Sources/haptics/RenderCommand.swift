import ArgumentParser
import Haptics

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "render", abstract: "Not yet available.")
    func run() throws { throw CLIError.invalidInput("'render' is not implemented yet") }
}
