/* examples/engine/nnue_uci.c: nnue-uci, the chess and xiangqi engine (UCI protocol; the game
 * follows the net, or UCI_Variant). */
#include "engine.h"

int main(int argc, char **argv)
{
    const engine_rules *games[] = {&engine_rules_chess, engine_rules_xiangqi(), NULL};
    return engine_main(games, argc, argv);
}
