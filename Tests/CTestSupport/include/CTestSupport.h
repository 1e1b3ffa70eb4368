#pragma once

/// Set by the constructor in fatal_signals.c: nonzero once the test process reports the
/// signals that would end it silently. Read by a test, so the object is linked in.
extern int haptics_test_reports_fatal_signals;
