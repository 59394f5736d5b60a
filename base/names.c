/* base/names.c: see names.h. */
#include "base/names.h"

#include <stdio.h>
#include <string.h>

#include "base/arch_limits.h"

static int letter(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

const char *nnue_name_problem(const char *what, const char *name, char *buf, size_t size)
{
    if (!name || !name[0]) {
        snprintf(buf, size, "%s: an empty name", what);
        return buf;
    }
    size_t n = strnlen(name, NNUE_NAME_MAX); /* never reads past the limit */
    if (n >= NNUE_NAME_MAX) {
        snprintf(buf, size, "%s '%.32s...': a name of more than %d characters", what, name, NNUE_NAME_MAX - 1);
        return buf;
    }
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        if (letter(c) || (i > 0 && c >= '0' && c <= '9'))
            continue;
        unsigned char u = (unsigned char)c;
        char shown[8] = ""; /* the character itself only when printable (it may be a newline) */
        if (u > 0x20 && u < 0x7F)
            snprintf(shown, sizeof shown, " '%c'", c);
        snprintf(buf, size, "%s '%.*s...': character %zu is 0x%02x%s; expected %s", what, (int)(i < 40 ? i : 40),
                 name, i + 1, u, shown, i ? "a letter, a digit or '_'" : "a letter or '_' first");
        return buf;
    }
    return NULL;
}
