// The feedback service: feedbackd's D-Bus interface (`org.sigxcpu.Feedback`) answered by the
// engine, with feedbackd's themes and profiles.
import Haptics
