/* core/net/net_self_describing.c: loading a self-describing net (include/nnue.h
 * nnue_net_load_self_describing): the container's parts (formats/self_describing.h), the
 * architecture from its YAML, the net from its bytes. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "formats/self_describing.h"
#include "nnue.h"

int nnue_net_is_self_describing(const void *head, size_t n)
{
    return head && nnue_sd_is(head, n);
}

nnue_status nnue_net_load_self_describing_memory(const void *data, size_t size, const char *name, nnue_net **out,
                                                 nnue_error *err)
{
    nnue_error_clear(err);
    if (out)
        *out = NULL;
    if (!data || !out)
        return nnue_fail(err, NNUE_E_ARG,
                         "nnue_net_load_self_describing_memory: expected the bytes and an output pointer");
    if (!name)
        name = "<memory>";
    nnue_sd_parts parts;
    nnue_status st = nnue_sd_split(data, size, name, &parts, err);
    if (st != NNUE_OK)
        return st;
    char label[1100];
    snprintf(label, sizeof label, "%s (embedded YAML)", name);
    nnue_arch *arch;
    if ((st = nnue_arch_load_string(parts.yaml, (size_t)parts.yaml_bytes, label, &arch, err)) != NNUE_OK)
        return st;
    snprintf(label, sizeof label, "%s (embedded net at byte %" PRIu64 ")", name, parts.net_at);
    st = nnue_net_load_memory(arch, parts.net, (size_t)parts.net_bytes, label, out, err);
    nnue_arch_free(arch);
    return st;
}

nnue_status nnue_net_load_self_describing(const char *path, nnue_net **out, nnue_error *err)
{
    nnue_error_clear(err);
    if (out)
        *out = NULL;
    if (!path || !out)
        return nnue_fail(err, NNUE_E_ARG, "nnue_net_load_self_describing: expected a path and an output pointer");
    FILE *f = fopen(path, "rb");
    unsigned char *data = NULL;
    long len = -1;
    if (!(f && fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
          (data = malloc((size_t)len + 1)) && fread(data, 1, (size_t)len, f) == (size_t)len)) {
        nnue_status st = nnue_fail(err, data || len < 0 ? NNUE_E_IO : NNUE_E_NOMEM, "%s: cannot read: %s", path,
                                   data || len < 0 ? strerror(errno) : "out of memory");
        free(data);
        if (f)
            fclose(f);
        return st;
    }
    fclose(f);
    nnue_status st = nnue_net_load_self_describing_memory(data, (size_t)len, path, out, err);
    free(data);
    return st;
}
