import ArgumentParser
import Haptics

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "export", abstract: "Not yet available.")
    func run() throws { throw CLIError.invalidInput("'export' is not implemented yet") }
}
