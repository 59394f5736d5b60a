"""The C declarations the package calls, copied from include/*.h (cffi ABI mode computes the
struct layouts from them, so every field must match the headers; tests/python/test_cdef.py
compares the function names with scripts/api_symbols.py's reading of the headers)."""

CDEF = r"""
typedef enum nnue_status {
    NNUE_OK = 0, NNUE_E_IO, NNUE_E_SYNTAX, NNUE_E_SCHEMA, NNUE_E_SHAPE, NNUE_E_FORMAT,
    NNUE_E_HASH, NNUE_E_AMBIGUOUS, NNUE_E_ILLEGAL, NNUE_E_NOMEM, NNUE_E_ARG
} nnue_status;

typedef struct nnue_error {
    nnue_status code;
    char file[256];
    int line;
    int column;
    long long offset;
    char message[768];
} nnue_error;

void nnue_error_format(const nnue_error *err, char *buf, size_t size);
const char *nnue_status_name(nnue_status code);

typedef struct nnue_board {
    uint8_t num_squares;
    uint8_t side_to_move;
    uint8_t king_sq[2];
    uint8_t piece_count;
    uint8_t piece_on[90];
    uint8_t hand[2][8];
} nnue_board;

typedef struct nnue_dirty {
    uint8_t old_piece, new_piece;
    int8_t old_sq, new_sq;
    uint8_t old_slot, new_slot;
} nnue_dirty;

typedef struct nnue_delta {
    uint8_t count;
    uint8_t king_moved[2];
    nnue_dirty dirty[3];
} nnue_delta;

typedef uint32_t nnue_move;

typedef struct nnue_threat {
    uint8_t attacker, from;
    uint8_t victim, to;
} nnue_threat;

typedef struct nnue_threats {
    uint16_t n_removed, n_added;
    nnue_threat removed[256];
    nnue_threat added[256];
} nnue_threats;

typedef struct nnue_threat_filter {
    uint32_t victims[32];
    uint32_t attackers[32];
} nnue_threat_filter;

typedef struct nnue_game_var {
    const char *name;
    int32_t lo, hi;
    int32_t (*value)(const nnue_board *board);
} nnue_game_var;

typedef struct nnue_game_history {
    int plies;
    int max_plies;
    int repetitions;
    uint8_t always_checked[2];
} nnue_game_history;

typedef struct nnue_game_record nnue_game_record;  /* only passed through (nnue match) */
typedef struct nnue_game {
    const char *name;
    uint8_t files, ranks;
    uint8_t piece_types;
    uint8_t king_type;
    uint8_t hand_types;
    uint8_t max_hand;
    const uint8_t *hand_caps;
    uint8_t max_pieces;
    const char *const *piece_names;
    const nnue_game_var *vars;
    int n_vars;
    const char *start;
    const char *position_word;
    const char *protocol;
    const char *colour_names[2];
    uint8_t counter_fields;
    int max_plies;
    const char *const *probes;
    unsigned pos_size;
    int (*parse)(void *pos, const char *text, struct nnue_error *err);
    void (*format)(const void *pos, char *buf, unsigned size);
    int (*legal_moves)(const void *pos, nnue_move *moves);
    void (*make)(void *pos, nnue_move move, nnue_delta *delta);
    void (*unmake)(void *pos, nnue_move move);
    int (*parse_move)(const void *pos, const char *text, nnue_move *move, struct nnue_error *err);
    void (*format_move)(nnue_move move, char *buf, unsigned size);
    const nnue_board *(*board)(const void *pos);
    int (*in_check)(const void *pos);
    unsigned long long (*perft)(void *pos, int depth);
    int (*adjudicate)(const void *pos, const nnue_game_history *h, int *winner, const char **reason);
    int (*declaration_valid)(const void *pos);
    void (*human_move)(const void *pos, nnue_move move, char *buf, unsigned size);
    int (*write_record)(void *f, const nnue_game_record *game);
    uint32_t size;
    void (*make_threats)(void *pos, nnue_move move, nnue_delta *delta, nnue_threats *threats);
    int (*material)(const nnue_board *board);
    void (*var_values)(const nnue_board *board, int32_t *values);
    void (*make_threats_filtered)(void *pos, nnue_move move, nnue_delta *delta, nnue_threats *threats,
                                  const nnue_threat_filter *filter);
} nnue_game;

int nnue_game_count(void);
const nnue_game *nnue_game_at(int index);
const nnue_game *nnue_game_find(const char *name);
int nnue_game_make_threats(const nnue_game *game, void *pos, nnue_move move, nnue_delta *delta,
                           nnue_threats *threats);
int nnue_game_make_threats_filtered(const nnue_game *game, void *pos, nnue_move move, nnue_delta *delta,
                                    nnue_threats *threats, const nnue_threat_filter *filter);

typedef struct nnue_arch nnue_arch;
typedef struct nnue_net nnue_net;
typedef struct nnue_state nnue_state;

const char *nnue_version(void);
nnue_status nnue_ext_load(const char *path, nnue_error *err);
nnue_status nnue_ext_load_env(nnue_error *err);
nnue_status nnue_arch_load_named(const char *name_or_path, nnue_arch **out, nnue_error *err);
nnue_status nnue_arch_load_string(const char *yaml, size_t len, const char *name, nnue_arch **out,
                                  nnue_error *err);
void nnue_arch_free(nnue_arch *arch);
int nnue_arch_builtin_count(void);
const char *nnue_arch_builtin_name(int index);
const char *nnue_arch_name(const nnue_arch *arch);
size_t nnue_arch_describe(const nnue_arch *arch, char *buf, size_t size);
void nnue_arch_hashes(const nnue_arch *arch, uint32_t *file_hash, uint32_t *ft_hash, uint32_t *network_hash);
typedef struct nnue_arch_layout {
    int raw;
    int container;
    uint32_t version;
    int leb128;
    int32_t description_bytes;
    uint64_t parameters;
    uint64_t file_size;
    int feature_sets;
    int reencodable;
} nnue_arch_layout;
void nnue_arch_layout_get(const nnue_arch *arch, nnue_arch_layout *out, size_t size);

typedef enum nnue_choice_kind {
    NNUE_CHOICE_NO_HASH, NNUE_CHOICE_SIZE_MISMATCH, NNUE_CHOICE_ONLY, NNUE_CHOICE_KNOWN_NET,
    NNUE_CHOICE_WRITTEN_FOR, NNUE_CHOICE_DEFAULT, NNUE_CHOICE_AMBIGUOUS, NNUE_CHOICE_NAMED_MISSING,
    NNUE_CHOICE_NAMED_SIZE, NNUE_CHOICE_SELF_DESCRIBING, NNUE_CHOICE_RAW
} nnue_choice_kind;
typedef struct nnue_choice nnue_choice;
#define NNUE_CHOOSE_BESIDE_NET 1
#define NNUE_CHOOSE_SHA256 2
nnue_status nnue_arch_choose(const char *path, const char *const *dirs, int n_dirs, unsigned flags,
                             nnue_choice **out, nnue_error *err);
nnue_status nnue_arch_choose_memory(const void *data, size_t size, const char *name, unsigned flags,
                                    nnue_choice **out, nnue_error *err);
void nnue_choice_free(nnue_choice *choice);
nnue_choice_kind nnue_choice_kind_of(const nnue_choice *choice);
nnue_status nnue_choice_result(const nnue_choice *choice, nnue_arch **arch, nnue_error *err);
int nnue_choice_count(const nnue_choice *choice);
const nnue_arch *nnue_choice_arch(const nnue_choice *choice, int index);
const char *nnue_choice_source(const nnue_choice *choice, int index);
int nnue_choice_size_fits(const nnue_choice *choice, int index);
uint64_t nnue_choice_expected_bytes(const nnue_choice *choice, int index);
int nnue_choice_chosen(const nnue_choice *choice);
const char *nnue_choice_named(const nnue_choice *choice);
const char *nnue_choice_sha256(nnue_choice *choice);
const char *nnue_choice_known_net(nnue_choice *choice, const char **arch);
typedef struct nnue_net_header_facts {
    uint32_t version, file_hash, ft_hash;
    uint32_t description_bytes;
    uint64_t file_bytes;
    int leb128;
    int zstd;
} nnue_net_header_facts;
const char *nnue_choice_header(const nnue_choice *choice, nnue_net_header_facts *out, size_t size);
typedef enum nnue_net_encoding {
    NNUE_WRITE_PLAIN, NNUE_WRITE_LEB128, NNUE_WRITE_ZSTD, NNUE_WRITE_UNZSTD, NNUE_WRITE_SELF_DESCRIBING
} nnue_net_encoding;
nnue_status nnue_net_convert(const nnue_arch *arch, const char *in_path, nnue_net_encoding to, const char *arch_yaml,
                             const char *out_path, nnue_error *err);
nnue_status nnue_net_load_as_encoded(const nnue_arch *arch, const char *path, nnue_net **out, nnue_error *err);
nnue_status nnue_net_random_memory(const nnue_arch *arch, uint64_t seed, void **data, size_t *size, nnue_error *err);
void nnue_bytes_free(void *data);
const nnue_game *nnue_arch_game(const nnue_arch *arch);

nnue_status nnue_net_load(const nnue_arch *arch, const char *path, nnue_net **out, nnue_error *err);
nnue_status nnue_net_load_auto(const char *path, nnue_net **out, nnue_error *err);
void nnue_net_free(nnue_net *net);
const char *nnue_net_warning(const nnue_net *net);
const nnue_arch *nnue_net_arch(const nnue_net *net);

typedef struct nnue_eval_detail {
    int bucket;
    int32_t psqt;
    int32_t positional;
    int32_t total;
    int32_t scaled;
} nnue_eval_detail;

typedef enum nnue_cp_kind { NNUE_CP_NONE, NNUE_CP_DIVIDE, NNUE_CP_SCALED, NNUE_CP_MATERIAL } nnue_cp_kind;
typedef struct nnue_cp_rule {
    nnue_cp_kind kind;
    int divisor;
    double a[4];
    char engine[48];
    char why[400];
    const nnue_game *game;
} nnue_cp_rule;
void nnue_cp_rule_for(const nnue_arch *arch, const char *sha256_hex, nnue_cp_rule *rule);
int nnue_cp_rule_needs_sha256(const nnue_arch *arch);
int nnue_cp_rule_for_file(const nnue_arch *arch, const char *path, nnue_cp_rule *rule);
int nnue_cp_convert(const nnue_cp_rule *rule, const nnue_eval_detail *detail, const char *position, int *cp);

nnue_state *nnue_state_new(const nnue_net *net, int max_ply);
void nnue_state_free(nnue_state *state);
int nnue_state_reset(nnue_state *state, const nnue_board *board);
int nnue_state_push(nnue_state *state, const nnue_board *board, const nnue_delta *delta);
int nnue_state_push_threats(nnue_state *state, const nnue_board *board, const nnue_delta *delta,
                            const nnue_threats *threats);
int nnue_state_takes_threats(const nnue_state *state);
const nnue_threat_filter *nnue_state_threat_filter(const nnue_state *state);
const nnue_error *nnue_state_error(const nnue_state *state);
void nnue_state_pop(nnue_state *state);
int nnue_state_ply(const nnue_state *state);
int32_t nnue_evaluate(nnue_state *state, const nnue_board *board, nnue_eval_detail *detail);
#define NNUE_MAX_BATCH_THREADS 1024
size_t nnue_eval_batch(const nnue_net *net, const char *const *positions, size_t count, int threads,
                       nnue_eval_detail *out, nnue_error *first_error, size_t *first_bad);
const char *nnue_isa_name(void);

typedef enum nnue_train_format { NNUE_TRAIN_BULLET, NNUE_TRAIN_PLAIN, NNUE_TRAIN_BINPACK } nnue_train_format;
typedef struct nnue_train_record {
    char position[256];
    char move[16];
    int32_t score;
    int32_t ply;
    char result[8];
    uint64_t line;
} nnue_train_record;
typedef struct nnue_train_reader nnue_train_reader;
typedef struct nnue_train_writer nnue_train_writer;
nnue_train_format nnue_train_format_of(const char *path);
const char *nnue_train_format_name(nnue_train_format format);
nnue_status nnue_train_format_parse(const char *name, nnue_train_format *format, nnue_error *err);
nnue_status nnue_train_open(const char *path, nnue_train_format format, nnue_train_reader **out, nnue_error *err);
int nnue_train_next(nnue_train_reader *reader, nnue_train_record *record, nnue_error *err);
void nnue_train_close(nnue_train_reader *reader);
size_t nnue_train_format_record(nnue_train_format format, const nnue_train_record *record, char *buf, size_t size);
nnue_status nnue_train_writer_open(const char *path, nnue_train_format format, nnue_train_writer **out,
                                   nnue_error *err);
nnue_status nnue_train_write(nnue_train_writer *writer, const nnue_train_record *record, nnue_error *err);
nnue_status nnue_train_writer_close(nnue_train_writer *writer, nnue_error *err);
void nnue_train_writer_abort(nnue_train_writer *writer);
"""
