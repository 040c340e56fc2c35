/* The deterministic demo account and zone seeded by --demo-data. */
#ifndef EDGEMU_DEMO_H
#define EDGEMU_DEMO_H

#define DEMO_ACCOUNT	"e1d9a0c6b3f24e7a9c5d8b2f4a6e0c31"
#define DEMO_ZONE	"7b4c2e9f1a3d4c8e9f0b6a5d3c2e1f40"

struct store;

/*
 * Seed the demo account and zone once; plan (an enum expr_plan, --plan's)
 * is what the demo data keeps to where a plan has limits.
 */
int	demo_seed(struct store *, int, char **);
/* The plan demo_seed seeds for, for the areas' demo data. */
int	demo_plan(void);
/*
 * --demo-videos N: N ready videos in the demo account, older than its
 * others (once per store: a larger N later adds the difference).
 */
#define DEMO_VIDEOS_MAX	10000000
int	demo_videos_seed(struct store *, long, char **);

#endif
