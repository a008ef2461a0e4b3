#ifndef SLEEVE_CZLIB_SHIM_H
#define SLEEVE_CZLIB_SHIM_H

#include <zlib.h>

#endif
