// Nothing to call: this target works from the executable's constructors. It replaces, at link
// time, the part of the static Swift runtime that finds the command line (see startup.c), and
// begins `play --device pulse`'s connection to the server (see connect_early.c). It is linked
// into the `haptics` executable and `pulse-floor` only.
#ifndef CSTARTUP_H
#define CSTARTUP_H
#endif
