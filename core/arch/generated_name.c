/* core/arch/generated_name.c: YaneuraOu's generated architecture names as shapes
 * (core/arch/generated_name.h). Facts: shared/oracle/shogi/yo26/FACTS.md sections 1, 3, 4, 5. */
#include "core/arch/generated_name.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* FACTS.md section 4, hand buckets; P L N S G B R: one side's pieces in hand. */
const nnue_generated_rule nnue_generated_hand_rules[] = {
    {"hand4", 2, "min(@_hand_bishop, 1)"},
    {"hand16", 4, "min(@_hand_pawn, 1) + 2 * min(@_hand_bishop, 1)"},
    {"hand64", 8,
     "min(@_hand_pawn + @_hand_lance + @_hand_knight, 1) + 2 * min(@_hand_gold + @_hand_silver + @_hand_rook, 1) + "
     "4 * min(@_hand_bishop, 1)"},
    {"hand64z", 8,
     "min((@_hand_pawn + 2 * (@_hand_lance + @_hand_knight) + 3 * (@_hand_silver + @_hand_gold) + 5 * "
     "(@_hand_bishop + @_hand_rook) + 3) / 4, 7)"},
    {"hand256", 16,
     "min(@_hand_pawn + @_hand_lance + @_hand_knight, 1) + 2 * min(@_hand_silver + @_hand_gold, 1) + 4 * "
     "min(@_hand_bishop, 1) + 8 * min(@_hand_rook, 1)"},
    {"hand1024", 32,
     "min(@_hand_pawn, 1) + 2 * min(@_hand_lance + @_hand_knight, 1) + 4 * min(@_hand_silver + @_hand_gold, 1) + "
     "8 * min(@_hand_bishop, 1) + 16 * min(@_hand_rook, 1)"},
    {NULL, 0, NULL},
};

/* FACTS.md section 4, king buckets; r, f: one king's rank and file from its own side. max(r - 7, 0)
 * equals r - 7 where it is used; written so, the loader's interval bound stays >= 0 when the
 * hand rule reads too many variables for its exact enumeration. */
const nnue_generated_rule nnue_generated_king_rules[] = {
    {"k3k3", 3, "@_king_rank / 3"},
    {"k9k9", 9, "@_king_rank"},
    {"k9k9z", 9,
     "if(@_king_rank < 3, 0, if(@_king_rank < 6, 1, if(@_king_rank == 6, 2, 3 + max(@_king_rank - 7, 0) * 3 + "
     "@_king_file / 3)))"},
    {"k13k13z", 13, "if(@_king_rank < 7, @_king_rank, 7 + max(@_king_rank - 7, 0) * 3 + @_king_file / 3)"},
    {"k21k21", 21,
     "if(@_king_rank < 3, 0, if(@_king_rank < 6, 1, if(@_king_rank == 6, 2, 3 + max(@_king_rank - 7, 0) * 9 + "
     "@_king_file)))"},
    {"k29k29", 29, "if(@_king_rank < 3, 0, if(@_king_rank < 6, 1, 2 + max(@_king_rank - 6, 0) * 9 + @_king_file))"},
    {NULL, 0, NULL},
};

static const uint32_t progress_counts[] = {2, 3, 4, 8, 16, 32};

static int fail(char *why, size_t size, const char *what, const char *token)
{
    snprintf(why, size, "%s%s%s%s", what, token ? " '" : "", token ? token : "", token ? "'" : "");
    return -1;
}

/* A decimal number filling the whole token (1..1e6), else 0. */
static uint32_t number(const char *t)
{
    if (!*t || strlen(t) > 7)
        return 0;
    for (const char *p = t; *p; p++)
        if (!isdigit((unsigned char)*p))
            return 0;
    return (uint32_t)atol(t);
}

static int rule_index(const nnue_generated_rule *rules, const char *t)
{
    for (int i = 0; rules[i].token; i++)
        if (strcmp(rules[i].token, t) == 0)
            return i;
    return -1;
}

int nnue_generated_parse(const char *name, size_t len, nnue_generated_shape *s, char *why, size_t size)
{
    char text[NNUE_NAME_MAX], *tok[16];
    if (len >= sizeof text)
        return fail(why, size, "expected a generated architecture name of at most 95 characters", NULL);
    for (size_t i = 0; i < len; i++)
        text[i] = name[i] == '-' ? '_' : (char)tolower((unsigned char)name[i]);
    text[len] = 0;
    /* strtok_r below would skip empty parts: "SFNN__halfkahm2_..." is not a name YaneuraOu writes */
    for (size_t i = 0; i < len; i++)
        if (text[i] == '_' && (i == 0 || i + 1 == len || text[i + 1] == '_')) {
            snprintf(why, size, "expected parts separated by single '_' or '-', found an empty part at character %zu",
                     i + 1 + (i > 0 && i + 1 < len));
            return -1;
        }
    memset(s, 0, sizeof *s);
    s->hand = s->king = -1;
    if (strcmp(text, "sfnn_1536") == 0) { /* the one shape with its own name (FACTS.md section 1) */
        *s = (nnue_generated_shape){1536, 15, 32, 0, 0, 0, -1, rule_index(nnue_generated_king_rules, "k3k3"), 0};
        return 0;
    }
    int n = 0;
    for (char *save = NULL, *t = strtok_r(text, "_", &save); t; t = strtok_r(NULL, "_", &save)) {
        if (n == 16)
            return fail(why, size, "expected at most 16 tokens in a generated architecture name", NULL);
        tok[n++] = t;
    }
    if (n < 5 || strcmp(tok[0], "sfnn") != 0)
        return fail(why, size, "expected SFNN_<feature>_<FT>_<H1>_<H2>[_cC_sSxG][_handN][_kNkN][_progressN]", NULL);
    if (strcmp(tok[1], "halfkahm2") != 0)
        return fail(why, size, "expected the feature halfkahm2 (the one feature set supported), found", tok[1]);
    s->ft = number(tok[2]), s->h1 = number(tok[3]), s->h2 = number(tok[4]);
    if (!s->ft || s->ft % 2)
        return fail(why, size, "expected an even FT width, found", tok[2]);
    if (!s->h1 || (s->h1 % 8 != 0 && s->h1 % 8 != 7))
        return fail(why, size, "expected H1 = 8n or 8n - 1, found", tok[3]);
    if (!s->h2)
        return fail(why, size, "expected H2 > 0, found", tok[4]);
    for (int i = 5; i < n; i++) {
        const char *t = tok[i];
        int hi = rule_index(nnue_generated_hand_rules, t), ki = rule_index(nnue_generated_king_rules, t);
        if (hi >= 0 || ki >= 0) {
            int *slot = hi >= 0 ? &s->hand : &s->king;
            if (*slot >= 0)
                return fail(why, size, hi >= 0 ? "expected one hand rule, found a second:" : "expected one king rule, "
                                                                                             "found a second:", t);
            *slot = hi >= 0 ? hi : ki;
        } else if (strncmp(t, "progress", 8) == 0) {
            uint32_t p = number(t + 8), ok = 0;
            for (size_t k = 0; k < sizeof progress_counts / sizeof progress_counts[0]; k++)
                ok |= p == progress_counts[k];
            if (!ok || s->progress)
                return fail(why, size, s->progress ? "expected one progress rule, found a second:"
                                                   : "expected progress2, 3, 4, 8, 16 or 32, found", t);
            s->progress = p;
        } else if (t[0] == 'c' && number(t + 1) && !s->groups) {
            const char *x = i + 1 < n && tok[i + 1][0] == 's' ? strchr(tok[i + 1], 'x') : NULL;
            char shard[16];
            if (!x || (size_t)(x - tok[i + 1]) >= sizeof shard)
                return fail(why, size, "expected sSxG (shard size x groups) after", t);
            snprintf(shard, sizeof shard, "%.*s", (int)(x - tok[i + 1] - 1), tok[i + 1] + 1);
            s->common = number(t + 1), s->shard = number(shard), s->groups = number(x + 1);
            if (!s->shard || s->groups < 2)
                return fail(why, size, "expected sSxG with S > 0 and G > 1, found", tok[i + 1]);
            i++;
        } else {
            return fail(why, size, "expected cC_sSxG, hand4..hand1024, k3k3..k29k29 or progressN, found", t);
        }
    }
    if (s->groups) {
        if ((uint64_t)s->common + (uint64_t)s->shard * s->groups != s->ft || s->common % 64 || s->shard % 64 ||
            nnue_generated_fc0_outputs(s) % s->groups)
            return fail(why, size,
                        "expected common + shard x groups = FT, common and shard multiples of 64, fc_0's outputs a "
                        "multiple of the groups (FACTS.md section 5)",
                        NULL);
    }
    return 0;
}

uint32_t nnue_generated_fc0_outputs(const nnue_generated_shape *s)
{
    return s->h1 + (s->h1 % 8 == 7);
}

uint64_t nnue_generated_stacks(const nnue_generated_shape *s)
{
    uint64_t n = s->progress ? s->progress : 1;
    if (s->hand >= 0)
        n *= (uint64_t)nnue_generated_hand_rules[s->hand].per_side * nnue_generated_hand_rules[s->hand].per_side;
    if (s->king >= 0)
        n *= (uint64_t)nnue_generated_king_rules[s->king].per_side * nnue_generated_king_rules[s->king].per_side;
    return n;
}

void nnue_generated_summary(const nnue_generated_shape *s, char *buf, size_t size)
{
    int n = snprintf(buf, size, "FT %u, H1 %u, H2 %u, ", s->ft, s->h1, s->h2);
    if (s->groups)
        n += snprintf(buf + n, size - (size_t)n, "fc_0 %u common + %u shards of %u", s->common, s->groups, s->shard);
    else
        n += snprintf(buf + n, size - (size_t)n, "dense fc_0");
    snprintf(buf + n, size - (size_t)n, ", %s, %s, progress%u", s->hand >= 0 ? nnue_generated_hand_rules[s->hand].token
             : "no hand rule", s->king >= 0 ? nnue_generated_king_rules[s->king].token : "no king rule", s->progress);
}

int nnue_generated_check_description(const nnue_arch *a, const char *d, size_t *at, char *why, size_t size)
{
    const char *p = d ? strstr(d, "Network=") : NULL;
    if (!p || strncasecmp(p + 8, "SFNN", 4) != 0)
        return 0;
    p += 8;
    size_t len = strcspn(p, "{,;");
    *at = (size_t)(p - d);
    nnue_generated_shape want, found;
    char e[160], ws[200], fs[200];
    if (nnue_generated_parse(a->format.generated, strlen(a->format.generated), &want, e, sizeof e) != 0)
        return snprintf(why, size, "architecture %s: format 'generated': %s", a->name, e), -1;
    if (nnue_generated_parse(p, len, &found, e, sizeof e) != 0)
        return snprintf(why, size, "the description's Network=%.*s is not a generated architecture name: %s",
                        (int)(len > 100 ? 100 : len), p, e), -1;
    nnue_generated_summary(&want, ws, sizeof ws);
    nnue_generated_summary(&found, fs, sizeof fs);
    if (strcmp(ws, fs) != 0)
        return snprintf(why, size, "the description names the architecture %.*s (%s), but architecture %s is %s",
                        (int)(len > 100 ? 100 : len), p, fs, a->name, ws), -1;
    const char *ls = strstr(p, "{LayerStack=");
    if (ls && ls == p + len && strtoul(ls + 12, NULL, 10) != a->stacks) {
        *at = (size_t)(ls + 12 - d);
        return snprintf(why, size, "the description says LayerStack=%lu, architecture %s has %u stacks",
                        strtoul(ls + 12, NULL, 10), a->name, a->stacks), -1;
    }
    return 0;
}

int nnue_generated_description(const nnue_arch *a, char *buf, size_t size)
{
    char upper[NNUE_NAME_MAX];
    size_t i = 0;
    for (; a->format.generated[i] && i + 1 < sizeof upper; i++)
        upper[i] = a->format.generated[i] == '-' ? '_' : (char)toupper((unsigned char)a->format.generated[i]);
    upper[i] = 0;
    return snprintf(buf, size,
                    "ModelType=SFNNWithoutPsqt;Features=HalfKA_hm2(Friend)[%u->%ux2],Network=%s{LayerStack=%u}",
                    a->ft.inputs, a->ft.width, upper, a->stacks);
}
