/// The scripts that hook `haptics` into bash, zsh and fish. Each is a few lines that pass the
/// words typed to `haptics ---complete` (``Completer``) and offer what it prints, one
/// candidate a line; a candidate ending in `/` (a folder) gets no space after it.
enum CompletionScript {
    enum Shell: String, CaseIterable, ChoiceArgument {
        case bash, zsh, fish
    }

    static func script(for shell: Shell) -> String {
        switch shell {
        case .bash:
            """
            # bash completion for haptics (the candidates come from `haptics ---complete`)
            _haptics() {
                local IFS=$'\\n'
                COMPREPLY=($("${COMP_WORDS[0]}" ---complete -- "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null))
                if [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == */ ]]; then compopt -o nospace; fi
            }
            complete -F _haptics haptics

            """
        case .zsh:
            """
            #compdef haptics
            # zsh completion for haptics (the candidates come from `haptics ---complete`)
            local -a candidates
            candidates=(${(f)"$(${words[1]} ---complete -- "${(@)words[2,CURRENT]}" 2>/dev/null)"})
            compadd -S '' -- ${(M)candidates:#*/}
            compadd -- ${candidates:#*/}

            """
        case .fish:
            """
            # fish completion for haptics (the candidates come from `haptics ---complete`)
            complete -c haptics -f -a '(haptics ---complete -- (commandline -opc)[2..-1] (commandline -ct))'

            """
        }
    }
}
