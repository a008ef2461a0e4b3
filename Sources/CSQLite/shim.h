#ifndef SLEEVE_CSQLITE_SHIM_H
#define SLEEVE_CSQLITE_SHIM_H

#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import:
// expose it as a function so bound text and blobs are copied by SQLite.
static inline sqlite3_destructor_type sleeve_sqlite_transient(void) {
  return SQLITE_TRANSIENT;
}

#endif
