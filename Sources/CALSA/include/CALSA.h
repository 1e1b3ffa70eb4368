#ifndef HAPTICS_CALSA_H
#define HAPTICS_CALSA_H
#include <alsa/asoundlib.h>
#endif
