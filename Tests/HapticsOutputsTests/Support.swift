// Tests of the output layer: discovery over fake /dev/input and /sys/class/input trees, the
// choice table, capabilities.
import HapticsOutputs
