// The output layer: discovery of every haptic output, what each can do, and the one choice of
// output shared by the command, the library, CoreHaptics and the feedback service.
@_exported import HapticsPlayback
