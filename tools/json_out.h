/* tools/json_out.h: tiny helpers to print JSON values with correct escaping. */
#ifndef NNUE_TOOLS_JSON_OUT_H
#define NNUE_TOOLS_JSON_OUT_H

#include <stdint.h>

/* Prints "key": "value" (escaped), preceded by ", " unless first. */
void json_key_string(const char *key, const char *value, int first);

/* Prints , "key": "0x%08X" (never first). */
void json_key_hex32(const char *key, uint32_t value);

/* Prints a JSON string literal (escaped). */
void json_string(const char *value);

#endif
