/* load/extension_load.c: loading extensions (include/nnue_extend.h) from shared objects:
 * dlopen, then the object's nnue_extension_init, which registers its layer types, feature sets
 * or games. Objects are never closed: what they registered must outlive every architecture. */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "nnue_extend.h"

nnue_status nnue_ext_load(const char *path, nnue_error *err)
{
    nnue_error_clear(err);
    if (!path || !path[0])
        return nnue_fail(err, NNUE_E_ARG, "nnue_ext_load: no path given");
    /* dlopen searches the library path for a bare name; a path with a '/' is taken as is. */
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *why = dlerror();
        return nnue_fail_at(err, NNUE_E_IO, path, 0, 0, "cannot load the extension: %s", why ? why : "unknown reason");
    }
    nnue_extension_init_fn init;
    void *symbol = dlsym(handle, NNUE_EXTENSION_INIT);
    memcpy(&init, &symbol, sizeof init); /* object pointer to function pointer, as POSIX allows */
    if (!symbol)
        return nnue_fail_at(err, NNUE_E_ARG, path, 0, 0,
                            "not an nnue extension: it defines no function '%s' (include/nnue_extend.h)",
                            NNUE_EXTENSION_INIT);
    nnue_error inner;
    nnue_error_clear(&inner);
    nnue_status st = init(&inner);
    if (st != NNUE_OK) {
        /* The extension's own code filled inner: its strings need not end before their arrays do. */
        inner.file[sizeof inner.file - 1] = '\0';
        inner.message[sizeof inner.message - 1] = '\0';
        char text[sizeof inner.message + 64];
        nnue_error_format(&inner, text, sizeof text);
        return nnue_fail_at(err, st, path, 0, 0, "the extension's %s failed: %s", NNUE_EXTENSION_INIT,
                            text[0] ? text : nnue_status_name(st));
    }
    return NNUE_OK;
}

nnue_status nnue_ext_load_env(nnue_error *err)
{
    nnue_error_clear(err);
    const char *list = getenv("NNUE_EXTENSIONS");
    if (!list)
        return NNUE_OK;
    while (*list) {
        const char *end = strchr(list, ':');
        size_t len = end ? (size_t)(end - list) : strlen(list);
        if (len > 0) {
            char path[4096];
            if (len >= sizeof path)
                return nnue_fail(err, NNUE_E_ARG, "NNUE_EXTENSIONS: a path of %zu bytes (at most %zu)", len,
                                 sizeof path - 1);
            memcpy(path, list, len);
            path[len] = '\0';
            nnue_status st = nnue_ext_load(path, err);
            if (st != NNUE_OK)
                return st;
        }
        list += len;
        if (*list == ':')
            list++;
    }
    return NNUE_OK;
}
