#ifndef SLEEVE_CPOSTGRES_SHIM_H
#define SLEEVE_CPOSTGRES_SHIM_H

// libpq, PostgreSQL's C client library (Debian's libpq-dev, pkg-config libpq): the shared
// history's only way to its server.
#include <libpq-fe.h>

#endif
