import ArgumentParser
import Haptics

struct PlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "play", abstract: "Not yet available.")
    func run() throws { throw CLIError.invalidInput("'play' is not implemented yet") }
}
