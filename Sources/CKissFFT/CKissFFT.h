#ifndef HAPTICS_CKISSFFT_H
#define HAPTICS_CKISSFFT_H
// kissfft (Debian: libkissfft-dev, version 131), single precision: the real FFT kiss_fftr.
#include <kissfft/kiss_fftr.h>
#endif
