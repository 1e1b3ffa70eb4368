#ifndef HAPTICS_CSNDFILE_H
#define HAPTICS_CSNDFILE_H
// libsndfile (Debian: libsndfile1-dev): reads WAV, FLAC, Ogg/Vorbis/Opus and, from 1.1, MP3.
#include <sndfile.h>
#endif
