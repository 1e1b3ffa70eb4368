// Nothing to call: this target replaces, at link time, the part of the static Swift runtime
// that finds the command line (see startup.c). It is linked into the `haptics` executable and
// `pulse-floor` only.
#ifndef CSTARTUP_H
#define CSTARTUP_H
#endif
