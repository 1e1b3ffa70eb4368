extension RumbleDevices {
    /// The udev rule that lets the logged-in user drive game controllers' rumble.
    ///
    /// `uaccess` asks logind to grant the user at the seat an ACL on the node; it must be
    /// tagged before `73-seat-late.rules` applies it, hence a file numbered below 73.
    package static let udevRule = #"SUBSYSTEM=="input", KERNEL=="event*", ENV{ID_INPUT_JOYSTICK}=="1", TAG+="uaccess""#

    /// Where ``udevRule`` goes.
    package static let udevRuleFile = "/etc/udev/rules.d/70-haptics.rules"

    /// The alternative for machines without logind (or remote sessions): a group.
    package static let udevGroupRule = #"SUBSYSTEM=="input", KERNEL=="event*", ENV{ID_INPUT_JOYSTICK}=="1", MODE="0660", GROUP="input""#

    /// The fix for "permission denied", in full, for the README and `haptics devices`.
    package static let udevRuleHelp = """
        Rumble needs read-write access to the controller's /dev/input/event* node, which \
        distributions give to root only. Allow the logged-in user with a udev rule:

            echo '\(udevRule)' | sudo tee \(udevRuleFile)
            sudo udevadm control --reload && sudo udevadm trigger

        then unplug and replug the controller. Without logind (e.g. over SSH), use a group instead:

            echo '\(udevGroupRule)' | sudo tee \(udevRuleFile)
            sudo usermod -aG input "$USER"

        and log in again. Check with `haptics devices`.
        """

    /// The same fix on one line, for error messages.
    package static let udevRuleOneLineHelp =
        "allow it with a udev rule: echo '\(udevRule)' | sudo tee \(udevRuleFile) && sudo udevadm control --reload && sudo udevadm trigger, then replug the controller"
}
