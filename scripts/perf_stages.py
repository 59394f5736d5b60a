#!/usr/bin/env python3
"""Shares of an `nnue bench` profile by evaluation stage (docs/speed.md, "Profile per stage").

    perf record -o W.data ./build/tools/nnue bench --net N --arch A --file F --mode incremental --iter 30
    scripts/perf_stages.py W.data [MORE.data ...]

Samples of loading the net (reading, LEB128, the i8 rows, the overflow scan, the kernel zeroing
pages) are left out, so the shares are of the evaluation loop alone. A symbol that no stage
names is counted under "other" and printed, so a new function does not hide in a wrong stage.
"""
import re
import subprocess
import sys

# First match wins; patterns are searched in the symbol name.
STAGES = [
    ("load (left out)", r"add_extreme_columns|nr_leb128|narrow_rows|threat_tables|count_misfits|parse_fen|"
     r"parse_sfen|net_read|read_file|^read$|_int_malloc|malloc|permute|plan_|load|positions_from_file|^add$"),
    ("rows: kernels", r"acc_i8|acc_i16|acc_i32|acc_mixed"),
    ("rows: prefetch (the misses)", r"prefetch_rows"),
    ("rows: applier, patches", r"apply_rows|apply_sets|apply_together"),
    ("accumulator bookkeeping", r"state_update|apply_pending|state_push|state_pop|refresh_sets|accumulator_refresh|"
     r"refresh_cache|boards_back|nnue_evaluate$|delta_check|acc_entry"),
    ("feature lists", r"_changed|_active|threat|touching|ca_sets|pp_|xqf_|board_before|indices_of|fast_attacks|"
     r"list_changes|mirror|context|halfk|bonapiece|needs_refresh|chess768|board_features"),
    ("FT activation", r"ft_pairwise|ft_clamp|pack_u8|ft_transform|ft_screlu"),
    ("fc0 with its non-zero list", r"affine_u8_list|nonzero_groups"),
    ("later layers, tail, forward", r"affine|tail_32|forward|crelu|expr_eval|propagate|bucket|layer|skip|rescale"),
    ("board checks", r"board_check|board_scan|check_board|check_kings"),
    ("bench loop, make/unmake, moves", r"make|unmake|legal|run_mode|bench|perft|gen_|movegen|v_board"),
]


def samples(path):
    out = subprocess.run(["perf", "report", "-i", path, "--no-children", "--stdio", "--sort", "dso,sym",
                          "--percent-limit", "0"], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        m = re.match(r"\s+([0-9.]+)%\s+(\S+)\s+\[(.)\]\s+(.*)$", line)
        if m:
            yield float(m.group(1)), m.group(2), m.group(3), m.group(4).strip()


def main():
    for path in sys.argv[1:]:
        share, unknown = {name: 0.0 for name, _ in STAGES}, {}
        share["other"] = 0.0
        kernel = 0.0
        for pct, dso, kind, sym in samples(path):
            if kind == "k" or dso.startswith("[kernel"):
                kernel += pct  # page zeroing and file reads of the load, timer ticks
                continue
            for name, pattern in STAGES:
                if re.search(pattern, sym):
                    share[name] += pct
                    break
            else:
                share["other"] += pct
                unknown[sym] = unknown.get(sym, 0.0) + pct
        evaluation = sum(v for k, v in share.items() if not k.startswith("load"))
        print(f"{path}: evaluation = {evaluation:.1f}% of the samples (load {share['load (left out)']:.1f}%, "
              f"kernel {kernel:.1f}%)")
        for name, v in share.items():
            if not name.startswith("load"):
                print(f"  {name:34s} {100 * v / evaluation:5.1f}%")
        top = sorted(unknown.items(), key=lambda kv: -kv[1])[:6]
        if top:
            print("  other: " + ", ".join(f"{s} {100 * v / evaluation:.1f}%" for s, v in top))


if __name__ == "__main__":
    main()
