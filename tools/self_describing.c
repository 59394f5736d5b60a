/* tools/self_describing.c: the self-describing net container of tools/self_describing.h. */
#include "tools/self_describing.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nnue.h"
#include "tools/tool_error.h"

int sd_is(const char *path)
{
    char magic[8];
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    int is = fread(magic, 1, 8, f) == 8 && memcmp(magic, SD_MAGIC, 8) == 0;
    fclose(f);
    return is;
}

/* Whole file into memory; NULL (message printed) on failure. */
static unsigned char *slurp(const char *cmd, const char *path, uint64_t *size)
{
    FILE *f = fopen(path, "rb");
    unsigned char *data = NULL;
    long len = -1;
    if (f && fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (data = malloc((size_t)len + 1)) && fread(data, 1, (size_t)len, f) == (size_t)len) {
        fclose(f);
        *size = (uint64_t)len;
        return data;
    }
    fprintf(stderr, "nnue %s: %s: cannot read: %s\n", cmd, path, data || len < 0 ? strerror(errno) : "out of memory");
    free(data);
    if (f)
        fclose(f);
    return NULL;
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

int sd_write(const char *cmd, const char *yaml_path, const char *net_path, FILE *f, const char *out)
{
    uint64_t yaml_len, net_len;
    unsigned char *yaml = slurp(cmd, yaml_path, &yaml_len), *net = yaml ? slurp(cmd, net_path, &net_len) : NULL;
    int rc = 1;
    if (yaml && net) {
        if (yaml_len > UINT32_MAX) {
            fprintf(stderr, "nnue %s: %s: YAML too large\n", cmd, yaml_path);
        } else {
            fwrite(SD_MAGIC, 1, 8, f);
            put_le(f, 1, 4);
            put_le(f, yaml_len, 4);
            fwrite(yaml, 1, yaml_len, f);
            put_le(f, net_len, 8);
            fwrite(net, 1, net_len, f);
            rc = ferror(f) != 0 || fflush(f) != 0;
            if (rc)
                fprintf(stderr, "nnue %s: %s: cannot write: %s\n", cmd, out, strerror(errno));
        }
    }
    free(yaml);
    free(net);
    return rc;
}

int sd_load(const char *cmd, const char *path, nnue_net **net)
{
    uint64_t size;
    unsigned char *data = slurp(cmd, path, &size);
    if (!data)
        return 1;
    int rc = 1;
    uint64_t yaml_len = size >= 16 ? get_le(data + 12, 4) : 0, version = size >= 16 ? get_le(data + 8, 4) : 0;
    uint64_t net_at = 16 + yaml_len + 8;
    if (size < 16 || memcmp(data, SD_MAGIC, 8) != 0 || version != 1) {
        fprintf(stderr, "nnue %s: %s: byte 0: expected a self-describing net (\"%s\", version 1)\n", cmd, path,
                SD_MAGIC);
    } else if (net_at > size || get_le(data + 16 + yaml_len, 8) != size - net_at) {
        fprintf(stderr, "nnue %s: %s: byte %" PRIu64 ": the YAML (%" PRIu64 " bytes) and net lengths do not add up "
                "to the file size %" PRIu64 " (truncated?)\n", cmd, path, net_at > size ? size : 16 + yaml_len,
                yaml_len, size);
    } else {
        nnue_arch *arch;
        nnue_error err;
        char name[1100];
        snprintf(name, sizeof name, "%s (embedded YAML)", path);
        if (nnue_arch_load_string((const char *)data + 16, (size_t)yaml_len, name, &arch, &err) != NNUE_OK) {
            tool_print_error(cmd, &err);
        } else {
            snprintf(name, sizeof name, "%s (embedded net at byte %" PRIu64 ")", path, net_at);
            if (nnue_net_load_memory(arch, data + net_at, (size_t)(size - net_at), name, net, &err) != NNUE_OK)
                tool_print_error(cmd, &err);
            else
                rc = 0;
            nnue_arch_free(arch);
        }
    }
    free(data);
    return rc;
}
