/* examples/engine/nnue_usi.c: nnue-usi, the shogi engine (USI protocol). */
#include "engine.h"

int main(int argc, char **argv)
{
    const engine_rules *games[] = {&engine_rules_shogi, NULL};
    return engine_main(games, argc, argv);
}
