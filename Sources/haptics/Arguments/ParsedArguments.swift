/// What a command line said to a command: each argument's words, by key.
struct ParsedArguments {
    /// The command the words were parsed for.
    let command: CommandSpec
    /// The words given, in order, and their arguments' keys (a flag has an empty word). Two
    /// lists of strings rather than a dictionary or a list of pairs: a command has a handful,
    /// and the first use of either of those generic types costs start-up more than the
    /// lookups ever take.
    private var keys: [String] = []
    private var givenWords: [String] = []

    init(command: CommandSpec) {
        self.command = command
    }

    mutating func append(_ word: String, for key: String) {
        keys.append(key)
        givenWords.append(word)
    }

    /// The words given for `key`, in order; nil when none was.
    func words(_ key: String) -> [String]? {
        var words: [String] = []
        for index in keys.indices where keys[index] == key { words.append(givenWords[index]) }
        return words.isEmpty ? nil : words
    }

    /// Whether the flag was given.
    func flag(_ key: String) -> Bool {
        words(checked(key)) != nil
    }

    /// The option's or positional's word (the last, if given more than once).
    func string(_ key: String) -> String? {
        words(checked(key))?.last
    }

    /// A required argument's word, which the parser has made sure is there.
    func required(_ key: String) -> String {
        guard let word = string(key) else { preconditionFailure("'\(key)' is required, so the parser checks it is given") }
        return word
    }

    /// Every word given for the key, in order.
    func strings(_ key: String) -> [String] {
        words(checked(key)) ?? []
    }

    /// The word converted, or nil when not given; a word the type refuses is a usage error
    /// naming the option.
    func value<Value: ArgumentValue>(_ key: String, as type: Value.Type = Value.self) throws(UsageError) -> Value? {
        guard let word = string(key) else { return nil }
        return try convert(word, key: key)
    }

    /// Every word given for the key, converted.
    func values<Value: ArgumentValue>(_ key: String, as type: Value.Type = Value.self) throws(UsageError) -> [Value] {
        var result: [Value] = []
        for word in strings(key) { result.append(try convert(word, key: key)) }
        return result
    }

    private func convert<Value: ArgumentValue>(_ word: String, key: String) throws(UsageError) -> Value {
        guard let value = Value(argument: word) else {
            throw UsageError.invalidValue(word, for: spec(key))
        }
        return value
    }

    private func spec(_ key: String) -> ArgumentSpec {
        guard let spec = command.arguments.first(where: { $0.key == key }) else {
            preconditionFailure("'\(command.name)' declares no argument '\(key)'")
        }
        return spec
    }

    /// A key the command does not declare is a programming error, caught by any test of it.
    private func checked(_ key: String) -> String {
        _ = spec(key)
        return key
    }
}
