#ifndef RESTD_CINTL_SHIM_H
#define RESTD_CINTL_SHIM_H

// glibc's gettext (libintl) and setlocale: the catalogs of po/, compiled to .mo files.
#include <libintl.h>
#include <locale.h>

#endif
