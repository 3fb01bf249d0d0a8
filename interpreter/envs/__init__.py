"""Environments for reinforcement-learning tools, each an optional extra: `pettingzoo`
(an AEC environment for any ruleset) and `gymnasium` (one seat learning, the others bots)."""
