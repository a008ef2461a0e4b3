#ifndef SLEEVE_CCURL_SHIM_H
#define SLEEVE_CCURL_SHIM_H

#include <curl/curl.h>

/// curl_global_init's flags: CURL_GLOBAL_DEFAULT (a macro expression Swift does not import).
static const long sleeve_curl_global_default = CURL_GLOBAL_DEFAULT;

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one typed
// wrapper per kind of argument Sleeve passes.

/// Sets a `long` option (CURLOPT_TIMEOUT_MS, CURLOPT_NOSIGNAL, ...).
static inline CURLcode sleeve_curl_set_long(CURL *handle, CURLoption option, long value) {
  return curl_easy_setopt(handle, option, value);
}

/// Sets a `curl_off_t` option (CURLOPT_POSTFIELDSIZE_LARGE).
static inline CURLcode sleeve_curl_set_offset(CURL *handle, CURLoption option, curl_off_t value) {
  return curl_easy_setopt(handle, option, value);
}

/// Sets a pointer option (CURLOPT_URL, CURLOPT_POSTFIELDS, CURLOPT_HTTPHEADER, the callbacks'
/// data, CURLOPT_ERRORBUFFER).
static inline CURLcode sleeve_curl_set_pointer(CURL *handle, CURLoption option, const void *value) {
  return curl_easy_setopt(handle, option, value);
}

/// The signature of CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION.
typedef size_t (*sleeve_curl_data_callback)(char *data, size_t size, size_t count, void *context);

/// Sets CURLOPT_WRITEFUNCTION or CURLOPT_HEADERFUNCTION.
static inline CURLcode sleeve_curl_set_data_callback(
    CURL *handle, CURLoption option, sleeve_curl_data_callback callback) {
  return curl_easy_setopt(handle, option, callback);
}

/// The signature of CURLOPT_XFERINFOFUNCTION.
typedef int (*sleeve_curl_progress_callback)(
    void *context, curl_off_t download_total, curl_off_t downloaded, curl_off_t upload_total,
    curl_off_t uploaded);

/// Sets CURLOPT_XFERINFOFUNCTION.
static inline CURLcode sleeve_curl_set_progress_callback(
    CURL *handle, sleeve_curl_progress_callback callback) {
  return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

/// Reads a `long` piece of information (CURLINFO_RESPONSE_CODE, CURLINFO_OS_ERRNO).
static inline CURLcode sleeve_curl_get_long(CURL *handle, CURLINFO info, long *value) {
  return curl_easy_getinfo(handle, info, value);
}

#endif
