// Tests of the feedback service: themes, profiles, and the daemon on a private session bus
// against real clients (fbcli, libfeedback) and Debian's feedbackd.
import HapticsService
