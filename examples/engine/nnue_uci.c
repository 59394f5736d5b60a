/* examples/engine/nnue_uci.c: nnue-uci, the chess engine (UCI protocol). */
#include "engine.h"

int main(int argc, char **argv)
{
    return engine_main(&engine_rules_chess, argc, argv);
}
