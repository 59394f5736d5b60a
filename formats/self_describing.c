/* formats/self_describing.c: the self-describing net container of
 * formats/self_describing.h. */
#include "formats/self_describing.h"

#include <string.h>

#include "base/error.h"

typedef unsigned long long ull;

int nnue_sd_is(const void *head, size_t n)
{
    return n >= 8 && memcmp(head, NNUE_SD_MAGIC, 8) == 0;
}

static void put_le(FILE *f, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        fputc((int)(v >> (8 * i)) & 0xFF, f);
}

static uint64_t get_le(const unsigned char *p, int bytes)
{
    uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

nnue_status nnue_sd_split(const void *bytes, uint64_t size, const char *name, nnue_sd_parts *parts, nnue_error *err)
{
    const unsigned char *data = bytes;
    uint64_t yaml_len = size >= 16 ? get_le(data + 12, 4) : 0, version = size >= 16 ? get_le(data + 8, 4) : 0;
    uint64_t net_at = 16 + yaml_len + 8;
    if (size < 16 || memcmp(data, NNUE_SD_MAGIC, 8) != 0 || version != 1)
        return nnue_fail_offset(err, NNUE_E_FORMAT, name, 0, "expected a self-describing net (\"%s\", version 1)",
                                NNUE_SD_MAGIC);
    if (net_at > size || get_le(data + 16 + yaml_len, 8) != size - net_at)
        return nnue_fail_offset(err, NNUE_E_FORMAT, name, (long long)(net_at > size ? size : 16 + yaml_len),
                                "the YAML (%llu bytes) and net lengths do not add up to the file size %llu "
                                "(truncated?)",
                                (ull)yaml_len, (ull)size);
    *parts = (nnue_sd_parts){(const char *)data + 16, yaml_len, data + net_at, size - net_at, net_at};
    return NNUE_OK;
}

int nnue_sd_write(FILE *f, const void *yaml, uint64_t yaml_bytes, const void *net, uint64_t net_bytes)
{
    fwrite(NNUE_SD_MAGIC, 1, 8, f);
    put_le(f, 1, 4);
    put_le(f, yaml_bytes, 4);
    fwrite(yaml, 1, yaml_bytes, f);
    put_le(f, net_bytes, 8);
    fwrite(net, 1, net_bytes, f);
    return ferror(f) != 0 || fflush(f) != 0;
}
