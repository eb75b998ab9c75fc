#ifndef RESTD_CPULSE_SHIM_H
#define RESTD_CPULSE_SHIM_H

// The PulseAudio client library (also what PipeWire's pipewire-pulse serves), without its own
// main loops: restd drives it from sd-event through a pa_mainloop_api of its own.
#include <pulse/context.h>
#include <pulse/error.h>
#include <pulse/introspect.h>
#include <pulse/mainloop-api.h>
#include <pulse/operation.h>
#include <pulse/proplist.h>
#include <pulse/scache.h>
#include <pulse/stream.h>
#include <sys/epoll.h>
#include <sys/time.h>

#endif
