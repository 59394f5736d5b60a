/* tools/json_out.c: JSON string escaping for the tool's --json outputs. */
#include "tools/json_out.h"

#include <inttypes.h>
#include <stdio.h>

void json_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            printf("\\%c", c);
        else if (c < 0x20)
            printf("\\u%04x", c);
        else
            putchar(c);
    }
    putchar('"');
}

void json_key_string(const char *key, const char *value, int first)
{
    if (!first)
        printf(", ");
    json_string(key);
    printf(": ");
    json_string(value);
}

void json_key_hex32(const char *key, uint32_t value)
{
    char hex[16];
    snprintf(hex, sizeof hex, "0x%08" PRIX32, value);
    json_key_string(key, hex, 0);
}
