#ifndef RESTD_CSQLITE_SHIM_H
#define RESTD_CSQLITE_SHIM_H

#include <sqlite3.h>

// SQLITE_TRANSIENT is ((sqlite3_destructor_type)-1), a macro Swift does not import: binding
// with it makes SQLite copy the bytes before the call returns.
static inline sqlite3_destructor_type restd_sqlite_transient(void) { return SQLITE_TRANSIENT; }

// Extended result codes are macros of the form (SQLITE_IOERR | (2<<8)), which Swift does not import.
static const int restd_sqlite_ioerr_short_read = SQLITE_IOERR_SHORT_READ;

#endif
