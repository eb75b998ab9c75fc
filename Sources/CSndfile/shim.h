#ifndef RESTD_CSNDFILE_SHIM_H
#define RESTD_CSNDFILE_SHIM_H

// libsndfile: decodes the sound theme's Ogg Vorbis (.oga, .ogg), FLAC and WAV files.
#include <sndfile.h>

#endif
