/* tests/tools/test_match_replies.c: `nnue match` against scripted fake engines (a shell script
 * that answers the handshake and, at each "go", sends the next line of its script): a bestmove
 * without a move loses as a protocol error instead of being credited with a stale move; an
 * engine's name cannot add PGN tags or end the movetext comment; --out is replaced whole
 * (a temporary file renamed at the end), never truncated and written in place. No real engine
 * is needed. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_run.h"
#include "support.h"

static char dir[4096], fake[4200];

/* The fake engine: line 1 of its script file is its name, then one reply per "go"; after the
 * last it resigns. */
static const char fake_engine[] =
    "exec 3< \"$1\"\n"
    "IFS= read -r name <&3\n"
    "while IFS= read -r line; do\n"
    "  case $line in\n"
    "    uci|usi) printf 'id name %s\\n%sok\\n' \"$name\" \"$line\";;\n"
    "    isready) echo readyok;;\n"
    "    go*) if IFS= read -r reply <&3; then printf '%s\\n' \"$reply\"; else echo 'bestmove resign'; fi;;\n"
    "    quit) exit 0;;\n"
    "  esac\n"
    "done\n";

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

/* Writes SCRIPT as DIR/NAME.txt and returns the command that runs the fake engine on it. */
static const char *engine(const char *name, const char *script)
{
    static char commands[2][8400];
    static int slot;
    char path[4400];
    snprintf(path, sizeof path, "%s/%s.txt", dir, name);
    write_text(path, script);
    char *c = commands[slot++ % 2];
    snprintf(c, sizeof commands[0], "sh '%s' '%s'", fake, path);
    return c;
}

/* One chess game between two scripts; returns the exit status, *out the tool's output. */
static int play(const char *white, const char *black, const char *extra, char **out)
{
    char args[20000];
    const char *w = engine("white", white);
    snprintf(args, sizeof args, "match --game chess --engine \"%s\" --opponent \"%s\" --games 1 --movetime 50 %s", w,
             engine("black", black), extra);
    return cli_run(args, out);
}

/* "bestmove" with no move, or only blanks after it: the side that sent it loses the game as a
 * protocol error (exit 1), after the plies played before it. */
START_TEST(bestmove_without_a_move_loses)
{
    static const char *const empty[] = {"bestmove ", "bestmove \t  ", "bestmove"};
    for (int i = 0; i < 3; i++) {
        char white[128], *out;
        snprintf(white, sizeof white, "Alpha\nbestmove e2e4\n%s\n", empty[i]);
        int rc = play(white, "Beta\nbestmove e7e5\n", "", &out);
        ck_assert_msg(rc == 1, "'%s': exit %d:\n%s", empty[i], rc, out);
        cli_expect_contains(out, "game 1/1: Alpha (white) - Beta (black): 0-1, Alpha sent 'bestmove' without a move, 2 "
                                 "plies\n");
        cli_expect_contains(out, "1 game(s) ended by an illegal move, a crash or a timeout");
        free(out);
    }
    /* On the first move (nothing said before): the same, after 0 plies. */
    char *out;
    ck_assert_int_eq(play("Alpha\nbestmove \n", "Beta\n", "", &out), 1);
    cli_expect_contains(out, ": 0-1, Alpha sent 'bestmove' without a move, 0 plies\n");
    free(out);
}
END_TEST

/* A PGN tag line is [Name "value"] with only \" and \\ inside the value; returns the value
 * unescaped, or NULL when the line is anything else. */
static const char *tag_value(const char *line, char *name, char *value)
{
    int n = 0;
    if (sscanf(line, "[%63[A-Za-z] \"%n", name, &n) != 1 || n == 0)
        return NULL;
    const char *c = line + n;
    size_t k = 0;
    for (; *c && *c != '"'; c++) {
        if (*c == '\\') {
            c++;
            if (*c != '"' && *c != '\\')
                return NULL;
        }
        value[k++] = *c;
    }
    value[k] = 0;
    return c[0] == '"' && strcmp(c, "\"]") == 0 ? value : NULL;
}

/* An engine named with quotes, a backslash, braces and a control character: the PGN keeps its
 * eight tags, the names read back exactly (the control character as '?'), and the movetext's
 * comment is closed only at its end. */
START_TEST(engine_names_are_escaped_in_pgn)
{
    char pgn[4300], *out;
    snprintf(pgn, sizeof pgn, "%s/names.pgn", dir);
    char extra[4400];
    snprintf(extra, sizeof extra, "--out '%s'", pgn);
    int rc = play("fake\"] [Evil \"x\\y} {z\033\nbestmove e2e4\nbestmove resign\n", "Beta\nbestmove e7e5\n", extra,
                  &out);
    ck_assert_msg(rc == 0, "exit %d:\n%s", rc, out);
    free(out);
    char *text = test_read_file(pgn, NULL), name[64], value[1024];
    ck_assert_ptr_nonnull(text);
    int tags = 0, braces = 0;
    const char *white = NULL, *termination = NULL;
    static char white_value[1024], termination_value[1024];
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] != '[') {
            for (const char *c = line; *c; c++)
                braces += *c == '}';
            continue;
        }
        ck_assert_msg(tag_value(line, name, value), "not one tag: %s", line);
        ck_assert_msg(strcmp(name, "Evil") != 0, "the name added a tag: %s", line);
        tags++;
        if (strcmp(name, "White") == 0)
            white = strcpy(white_value, value);
        if (strcmp(name, "Termination") == 0)
            termination = strcpy(termination_value, value);
    }
    ck_assert_int_eq(tags, 8);
    ck_assert_int_eq(braces, 1);
    ck_assert_ptr_nonnull(white);
    ck_assert_str_eq(white, "fake\"] [Evil \"x\\y} {z?");
    ck_assert_str_eq(termination, "fake\"] [Evil \"x\\y} {z? resigns");
    free(text);
}
END_TEST

/* An engine started by a command longer than the names' room (127 characters: here a long
 * argument the fake ignores; in CI a deep build path did it) is still named by its "id name"
 * in the summary and the PGN: the name was once taken only while it still equalled the command,
 * which the cut copy never did. */
START_TEST(long_command_takes_the_engine_name)
{
    char pgn[4300], padded[9000], args[20000], pad[301], *out;
    memset(pad, 'p', 300);
    pad[300] = 0;
    snprintf(pgn, sizeof pgn, "%s/long.pgn", dir);
    snprintf(padded, sizeof padded, "%s '%s'", engine("white", "Alpha\nbestmove e2e4\nbestmove resign\n"), pad);
    snprintf(args, sizeof args, "match --game chess --engine \"%s\" --opponent \"%s\" --games 1 --movetime 50 --out '%s'",
             padded, engine("black", "Beta\nbestmove e7e5\n"), pgn);
    ck_assert_msg(strlen(padded) > 127, "the command must not fit");
    int rc = cli_run(args, &out);
    ck_assert_msg(rc == 0, "exit %d:\n%s", rc, out);
    cli_expect_contains(out, "game 1/1: Alpha (white) - Beta (black)");
    free(out);
    char *record = test_read_file(pgn, NULL);
    ck_assert_ptr_nonnull(record);
    ck_assert_msg(strstr(record, "[White \"Alpha\"]"), "%s", record);
    free(record);
}
END_TEST

/* --out is written to a temporary file renamed over the path at the end: a reader that had the
 * old file open still reads the old bytes (fopen "w" truncated it in place), no temporary file
 * is left, and a symbolic link at the path stays one while the file it points to gets the record
 * (io/atomic_file.h's rule). */
START_TEST(out_is_replaced_whole)
{
    char sub[4200], path[4300], target[4300], link[4300], extra[9000], *out;
    snprintf(sub, sizeof sub, "%s/out-atomic", dir);
    mkdir(sub, 0777);
    snprintf(path, sizeof path, "%s/games.pgn", sub);
    snprintf(target, sizeof target, "%s/target.pgn", sub);
    snprintf(link, sizeof link, "%s/linked.pgn", sub);
    write_text(path, "old record\n");
    write_text(target, "old target\n");
    remove(link);
    ck_assert_int_eq(symlink("target.pgn", link), 0);
    FILE *reader = fopen(path, "r");
    ck_assert_ptr_nonnull(reader);
    for (int i = 0; i < 2; i++) {
        snprintf(extra, sizeof extra, "--out '%s'", i ? link : path);
        int rc = play("Alpha\nbestmove e2e4\nbestmove resign\n", "Beta\nbestmove e7e5\n", extra, &out);
        ck_assert_msg(rc == 0, "exit %d:\n%s", rc, out);
        free(out);
    }
    char old[64] = "";
    ck_assert_ptr_nonnull(fgets(old, sizeof old, reader));
    fclose(reader);
    ck_assert_str_eq(old, "old record\n");
    for (int i = 0; i < 2; i++) {
        char *record = test_read_file(i ? target : path, NULL);
        ck_assert_msg(strstr(record, "[White \"Alpha\"]") && strstr(record, "1. e4 e5 {Alpha resigns} 0-1"), "%s",
                      record);
        free(record);
    }
    struct stat st;
    ck_assert_int_eq(lstat(link, &st), 0);
    ck_assert_msg(S_ISLNK(st.st_mode), "%s is no longer a link", link);
    DIR *d = opendir(sub);
    int files = 0;
    for (struct dirent *e; (e = readdir(d));)
        files += e->d_name[0] != '.' || strstr(e->d_name, "tmp") != NULL;
    closedir(d);
    ck_assert_int_eq(files, 3);
}
END_TEST

int main(void)
{
    snprintf(dir, sizeof dir, "%s/match-replies", test_build_dir());
    mkdir(dir, 0777);
    snprintf(fake, sizeof fake, "%s/fake-engine.sh", dir);
    FILE *f = fopen(fake, "w"); /* outside a test: no ck_assert here */
    if (!f || fputs(fake_engine, f) < 0 || fclose(f) != 0) {
        fprintf(stderr, "FAIL: cannot write %s\n", fake);
        return 1;
    }
    Suite *s = suite_create("match_replies");
    TCase *tc = tcase_create("match_replies");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, bestmove_without_a_move_loses);
    tcase_add_test(tc, engine_names_are_escaped_in_pgn);
    tcase_add_test(tc, out_is_replaced_whole);
    tcase_add_test(tc, long_command_takes_the_engine_name);
    suite_add_tcase(s, tc);
    return test_run(s);
}
