import ArgumentParser
import Haptics

struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Not yet available.")
    func run() throws { throw CLIError.invalidInput("'show' is not implemented yet") }
}
