import ArgumentParser
import Haptics

struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Not yet available.")
    func run() throws { throw CLIError.invalidInput("'list' is not implemented yet") }
}
