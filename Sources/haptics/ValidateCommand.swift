import ArgumentParser
import Haptics

struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "validate", abstract: "Not yet available.")
    func run() throws { throw CLIError.invalidInput("'validate' is not implemented yet") }
}
