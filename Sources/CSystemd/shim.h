#ifndef RESTD_CSYSTEMD_SHIM_H
#define RESTD_CSYSTEMD_SHIM_H

#include <systemd/sd-event.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>
#include <systemd/sd-id128.h>
#include <sys/timerfd.h>
#include <sys/epoll.h>
#include <signal.h>
#include <time.h>
// malloc_trim: Glibc's module does not export it.
#include <malloc.h>

#endif
