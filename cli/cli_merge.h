/*
 * cli_merge.h — `spvi merge [--combine [argI=]OP]... OUT_DIR SHARD_DIR...`: combines the --out
 * directories of runs of one launch over disjoint sets of work-groups (`spvi run --shard K/N`,
 * `--groups START:END`).
 */
#ifndef CLI_MERGE_H
#define CLI_MERGE_H

int cli_merge_main(int argc, char **argv);

#endif
